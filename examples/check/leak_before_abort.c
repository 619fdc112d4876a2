// valid-memsafety is violated (FALSE(valid-memtrack)): on the abort path the last pointer to the block is
// overwritten before abort() ends the run. SV-COMP's valid-memtrack is violated when a block becomes
// unreachable, however the run ends afterwards (an abort ends it without a leak check natively, so LSan
// is silent: the argument is the property's definition).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int *p = malloc(8);
    if (__VERIFIER_nondet_int()) {
        p = 0;
        abort();
    }
    free(p);
    return 0;
}
