// --data-model ILP32, valid-memsafety: FALSE(valid-deref). A global keeps the address of a dead local while
// ten thousand calls use up the 4095 object ids of 32-bit addresses: the ids of other dead locals are
// reused, this one's is not (a value still points to it), so the read through it is a use after return.
int *kept;
static void remember(void) {
    int x = 1;
    kept = &x;
}
static void set(int *p, int v) {
    *p = v;
}
static int twice(int v) {
    int r;
    set(&r, 2 * v);
    return r;
}
int main(void) {
    remember();
    int sum = 0;
    for (int i = 0; i < 10000; i++)
        sum += twice(i % 3);
    return *kept + sum;
}
