// unreach-call and valid-memsafety: TRUE, with 64-bit and with 32-bit pointers. `a - k` points before the
// array and `p[k]` is `a[0]` again: the pointer keeps the object it was derived from, and only a
// dereference outside the object would be an error. Native builds (clang-14 -fsanitize=address,undefined,
// pointer-overflow included, with and without -m32) exit 0 for every k. symex used to answer
// FALSE(valid-deref) "write through a pointer to no object".
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int k = __VERIFIER_nondet_int();
    if (k < 1 || k > 6) return 0;
    int *p = a - k;
    p[k] = 7;
    if (p + k != a) reach_error();
    if (a[0] != 7 || p[k + 3] != 4) reach_error();
    if (!(p < a) || a - p != k) reach_error();
    return 0;
}
