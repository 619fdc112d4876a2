/* Performance-guard workload: insertion sort of 4 symbolic ints, then a check that the result is
 * sorted. One path per ordering (24); the check never fails. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int a[4];
    for (int i = 0; i < 4; i++)
        a[i] = __VERIFIER_nondet_int();
    for (int i = 1; i < 4; i++) {
        int v = a[i], j = i - 1;
        for (; j >= 0 && a[j] > v; j--)
            a[j + 1] = a[j];
        a[j + 1] = v;
    }
    for (int i = 1; i < 4; i++)
        if (a[i - 1] > a[i])
            reach_error();
    return 0;
}
