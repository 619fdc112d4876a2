// valid-memsafety: TRUE (native builds with clang-14 -fsanitize=address,undefined, with and without -m32,
// exit 0 for k = 0, 1, 5, 131070..131075, 200000, 299999, 300000). `q - k` is an input's distance before
// `a`; `p[k]` is `a[0]` again. With 64-bit pointers the distance stays within half a region of `a`
// (512 GiB) and symex answers TRUE. With 32-bit pointers a k above 131072 (512 KiB) takes `q - k` where
// another object's bytes may lie, so the model poisons it; `p[k]` brings it back by an amount the model
// does not know, so the dereference is undecided and the verdict UNKNOWN — never a wrong
// FALSE(valid-deref).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int k = __VERIFIER_nondet_int();
    if (k < 0 || k > 300000)
        return 0;
    int *q = a;
    int *p = q - k;
    p[k] = 5;
    if (a[0] != 5)
        reach_error();
    return 0;
}
