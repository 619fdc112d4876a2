// valid-memsafety is violated (FALSE(valid-memtrack)): for x == 5 the only pointer to the block is
// overwritten, then the assert fails and ends the run (as in leak_before_abort.c, the block was lost
// before the end; other runs free it).
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    int *p = malloc(8);
    if (x == 5)
        p = 0;
    assert(x != 5);
    free(p);
    return 0;
}
