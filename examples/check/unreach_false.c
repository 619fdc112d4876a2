// unreach-call is violated for x == 42 (the legacy error function counts as reach_error).
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x == 42) __VERIFIER_error();
    return 0;
}
