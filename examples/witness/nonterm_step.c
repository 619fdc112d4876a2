// Counts x down by `step` until it is 0. With step = 0 and x != 0, or an even step and an odd x, the
// loop never ends (unsigned arithmetic wraps, so no overflow ends it either): termination is FALSE.
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
    unsigned int x = __VERIFIER_nondet_uint();
    unsigned int step = __VERIFIER_nondet_uint();
    while (x != 0) {
        x = x - step;
    }
    return 0;
}
