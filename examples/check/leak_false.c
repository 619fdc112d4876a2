// valid-memsafety is violated: the block is unreachable at exit when x is odd (valid-memtrack).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int *keep;
int main(void) {
    int *p = malloc(8);
    if (__VERIFIER_nondet_int() & 1) return 0;
    keep = p;
    return 0;
}
