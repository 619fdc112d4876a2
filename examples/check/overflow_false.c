// no-overflow is violated: x + 1 overflows for x == INT_MAX.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    int y = x + 1;
    return y > 0;
}
