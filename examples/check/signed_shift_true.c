// no-overflow holds (TRUE): the unsigned shift wraps (defined) and the signed one stays representable
// (0 <= x < 1000, so x << 3 < 8000). Natively (clang-14 -fsanitize=shift-base): no report for any input.
extern int __VERIFIER_nondet_int(void);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
    unsigned v = __VERIFIER_nondet_uint() << 5;
    int x = __VERIFIER_nondet_int();
    if (x < 0 || x >= 1000)
        return 0;
    return (x << 3) > (int)(v & 7);
}
