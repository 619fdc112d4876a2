// no-overflow is violated (FALSE): for n == 32, 1 << n is 2^32, not representable in int (C11 6.5.7p4).
// clang's base check skips exponents at or above the width; its exponent check reports it. Natively
// (clang-14 -fsanitize=shift-exponent, nondet = 32): "shift exponent 32 is too large for 32-bit type 'int'".
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 32 || n > 40)
        return 0;
    unsigned u = 1u << (n & 31); // unsigned, exponent below the width: defined, no overflow
    int r = 7 >> (n & 31);       // right shift: never an overflow
    return (1 << n) + (int)(u & 1) + r;
}
