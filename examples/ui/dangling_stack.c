// A pointer to a local of a function that has returned.
int *leak_local(void) {
    int x = 5;
    int *p = &x;
    return p;
}
int main(void) {
    int *p = leak_local();
    return *p;
}
