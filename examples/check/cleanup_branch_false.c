// valid-memcleanup is violated exactly when x <= 5: the global's block is freed on the other branch only.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

char *buffer;

int main(void) {
    int x = __VERIFIER_nondet_int();
    buffer = malloc(8);
    if (x > 5) {
        free(buffer);
        buffer = 0;
    }
    return 0;
}
