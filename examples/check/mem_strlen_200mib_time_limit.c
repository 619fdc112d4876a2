// A 200 MiB string filled by memset: strlen is n - 1, so reach_error is unreachable (TRUE natively:
// clang-14 -fsanitize=address,undefined runs it to exit 0). The library models walk the string byte by
// byte; under --max-time they stop at the deadline (the verdict is then UNKNOWN, reached within the
// limit), instead of answering minutes later.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
    size_t n = (size_t)200 << 20;
    char *p = malloc(n);
    if (!p)
        return 0;
    memset(p, 'a', n - 1);
    p[n - 1] = 0;
    if (strlen(p) != n - 1)
        reach_error();
    free(p);
    return 0;
}
