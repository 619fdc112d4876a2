// A task that declares the SV-COMP functions `noreturn` (as termination-bwb's and-01 and
// counting-bits-set do): the competition's rules say they return, so the loop is reached and
// terminates. Compiled as written, clang would end `main` with `unreachable` after the first call.
extern int __VERIFIER_nondet_int(void) __attribute__((__noreturn__));
extern void __VERIFIER_assume(int) __attribute__ ((__noreturn__));

int main(void) {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n > 0);
    while (n > 0)
        n = n - 1;
    return 0;
}
