// The test (not_freed.json) records the outcome `not-freed`, which turns valid-memcleanup's check on: the
// block kept in a global is still reachable (no memory-leak) but not freed when main returns.
// LeakSanitizer scanning no roots lists it natively (`symex replay --native not_freed.c not_freed.json`).
#include <stdlib.h>
char *kept;
int main(void) {
    kept = malloc(16);
    kept[0] = 1;
    return 0;
}
