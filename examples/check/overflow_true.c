// no-overflow holds: the operands are bounded before the arithmetic.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x > 1000 || x < -1000) return 0;
    int y = x * 1000 + 7;
    return y > 0;
}
