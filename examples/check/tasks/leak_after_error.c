// An SV-COMP style task with three properties: the error is reachable (unreach-call FALSE), the block
// allocated before it is never freed on that path (valid-memsafety FALSE, valid-memtrack), and no
// signed arithmetic overflows (no-overflow TRUE).
#include <stdlib.h>
extern void abort(void);
void reach_error(void) { abort(); }
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    int *p = malloc(sizeof(int));
    if (!p)
        return 0;
    *p = x % 100;
    if (*p == 42) {
        p = 0;
        reach_error();
    }
    free(p);
    return 0;
}
