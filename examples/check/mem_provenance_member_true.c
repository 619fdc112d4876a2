// unreach-call and valid-memsafety: TRUE, with 64-bit and with 32-bit pointers. A pointer derived from a
// struct member goes k elements before it (out of the struct for k > 1) and comes back. Native builds
// (clang-14 -fsanitize=address,undefined, with and without -m32) exit 0 for every k.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct S {
    int x;
    int arr[4];
    int y;
};
int main(void) {
    struct S s = {0, {1, 2, 3, 4}, 9};
    int k = __VERIFIER_nondet_int();
    if (k < 0 || k > 100) return 0;
    int *p = s.arr - k;
    if (p + k != s.arr) reach_error();
    p[k + 3] = 5;
    if (s.arr[3] != 5 || s.y != 9) reach_error();
    return 0;
}
