extern int __VERIFIER_nondet_int(void);
int main(void) {
    int d = __VERIFIER_nondet_int();
    return 100 / d;
}
