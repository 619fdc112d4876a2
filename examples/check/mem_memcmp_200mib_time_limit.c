// Two 200 MiB blocks filled alike: memcmp is 0, so reach_error is unreachable (TRUE natively: clang-14
// -fsanitize=address,undefined runs it to exit 0). Under --max-time the byte loop of the model stops at
// the deadline: the verdict is UNKNOWN, reached within the limit.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
    size_t n = (size_t)200 << 20;
    char *a = malloc(n);
    char *b = malloc(n);
    if (!a || !b)
        return 0;
    memset(a, 7, n);
    memset(b, 7, n);
    if (memcmp(a, b, n) != 0)
        reach_error();
    free(a);
    free(b);
    return 0;
}
