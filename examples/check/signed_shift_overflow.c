// no-overflow is violated (FALSE): for x == 1 << 30, x << 1 is 2^31, not representable in int (C11 6.5.7p4:
// E1 << E2 of a signed E1 is undefined unless E1 * 2^E2 is representable). Natively (clang-14
// -fsanitize=shift-base, nondet = 1073741824): "left shift of 1073741824 by 1 places cannot be represented".
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < 0)
        return 0;
    unsigned u = (unsigned)x << 1; // unsigned: wraps, defined
    return (x << 1) > 0 && u != 0;
}
