// An SV-COMP style harness whose first statement is an assumption: `n > 0`. From a seed with n = 0 the
// first run fails the assumption; the search negates it like a branch, and the child (n > 0) goes on to
// the branches behind it. The bug needs n above 1000 and n % 7 == 3.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
    int n = __VERIFIER_nondet_int();
    __VERIFIER_assume(n > 0);
    if (n > 1000) {
        if (n % 7 == 3)
            abort();
        return 2;
    }
    return 1;
}
