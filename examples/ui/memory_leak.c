// symex-flags: --check-leaks
// The block is unreachable when main returns; the one kept in a global is not a leak.
#include <stdlib.h>
char *kept;
int main(void) {
    kept = malloc(16);
    char *lost = malloc(32);
    lost[0] = 1;
    return 0;
}
