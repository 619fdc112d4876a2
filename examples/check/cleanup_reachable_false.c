// valid-memcleanup is violated: the block stays reachable from `keep` (so valid-memtrack holds) but is
// never freed. LeakSanitizer with no roots lists it at exit.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int *keep;

int main(void) {
    int n = __VERIFIER_nondet_int();
    keep = malloc(sizeof(int));
    if (keep == 0) return 0;
    *keep = n;
    return 0;
}
