// --data-model ILP32, valid-memsafety: FALSE(valid-deref). The address of a local outlives its function
// (it escapes through the return value), so the read through it is a use after return; object ids of
// locals whose address never escapes are reused on i386, this one's must not be.
int *leak_local(void) {
    int x = 1;
    return &x;
}
int other(int a) {
    int y = a + 1;
    return y;
}
int main(void) {
    int *p = leak_local();
    int z = other(5);
    return *p + z;
}
