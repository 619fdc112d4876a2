// valid-memsafety: FALSE(valid-deref), with 64-bit and with 32-bit pointers. The pointer keeps its
// object through `a - k`, but `p[k - 1]` is `a[-1]`: a dereference outside the object. A native build
// (clang-14 -fsanitize=address, with and without -m32) reports a stack-buffer-underflow for every k.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int k = __VERIFIER_nondet_int();
    if (k < 1 || k > 6) return 0;
    int *p = a - k;
    return p[k - 1];
}
