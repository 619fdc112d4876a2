// unreach-call and valid-memsafety: TRUE, with 64-bit and with 32-bit pointers. Numerical Recipes'
// one-based vectors: `vector(lo, hi)` returns the block minus `lo`, indices run from lo to hi, and
// `free_vector` gives `v + lo`, the block, back to free. Native builds (clang-14
// -fsanitize=address,undefined, with and without -m32; LeakSanitizer on the 64-bit one) exit 0 for
// every n. symex used to answer FALSE(valid-deref), and on unreach-call reached the wrong
// `v + lo != block` branch.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
static int *block;
int *vector(int lo, int hi) {
    int *v = (int *)malloc((size_t)(hi - lo + 1) * sizeof(int));
    if (!v) abort();
    block = v;
    return v - lo;
}
void free_vector(int *v, int lo) { free(v + lo); }
int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 1 || n > 6) return 0;
    int *v = vector(1, n);
    if (v + 1 != block) reach_error();
    for (int i = 1; i <= n; i++) v[i] = i * i;
    if (v[n] != n * n || block[0] != 1) reach_error();
    free_vector(v, 1);
    return 0;
}
