// --data-model ILP32, valid-memsafety: TRUE. Ten thousand calls whose locals' addresses are passed on (they
// escape): more stack objects than 32-bit addresses can give ids to (4095), so once the ids run out those
// of dead locals that no value points to any more are reused.
static void set(int *p, int v) {
    *p = v;
}
static int twice(int v) {
    int r;
    set(&r, 2 * v);
    return r;
}
int main(void) {
    int sum = 0;
    for (int i = 0; i < 10000; i++)
        sum += twice(i % 3);
    return sum == 19998 ? 0 : 1;
}
