// unreach-call and valid-memsafety: TRUE, with 64-bit and with 32-bit pointers. `a + 20` points past the
// 16-byte global `a` (beyond one past the end) and comes back: `p[-5]` is `a[15]` and `p - 20 == a`.
// A pointer to before `b` compared with a pointer into `b` is one object's too. Native builds (clang-14
// -fsanitize=address,undefined, with and without -m32) exit 0 for every k.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
char a[16];
char b[16];
int main(void) {
    int k = __VERIFIER_nondet_int();
    if (k < 0 || k > 40) return 0;
    char *p = a + 20;
    p[-5] = 3;
    if (p - 20 != a || a[15] != 3) reach_error();
    char *q = b - k;
    q[k + 1] = 9;
    if (b[1] != 9 || q + k != b) reach_error();
    return 0;
}
