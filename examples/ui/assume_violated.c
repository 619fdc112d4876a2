// The test's input violates the program's assumption: replay says so (exit status 3).
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x > 10);
    return x;
}
