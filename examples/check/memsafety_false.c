// valid-memsafety is violated: n == 4 writes one past the end of the block (valid-deref).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int();
    int *a = malloc(4 * sizeof(int));
    if (!a) return 0;
    if (n >= 0 && n <= 4) a[n] = 1;
    free(a);
    return 0;
}
