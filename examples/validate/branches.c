// reach_error is reached exactly when i == 7 after the loop: i starts at 5 when x > 10 (two laps, n == 7)
// and at 0 otherwise (seven laps, n == 7). The witnesses beside this file fix no value: they name only the
// ways the conditions go, so a validator must follow branch directions to tell them apart.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n <= 10);
    int i = 0;
    if (x > 10)
        i = 5;
    while (i < n)
        i++;
    if (i == 7)
        reach_error();
    return 0;
}
