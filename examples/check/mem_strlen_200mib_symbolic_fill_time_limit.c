// A 200 MiB string filled by memset with an input byte other than NUL: strlen is n - 1 for every input,
// so reach_error is unreachable (TRUE natively: clang-14 -fsanitize=address,undefined runs it to exit 0
// on every byte 1..255). The fill is not a constant, so the model of strlen walks it byte by byte; under
// --max-time it stops at the deadline (the verdict is then UNKNOWN, reached within the limit).
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
extern char __VERIFIER_nondet_char(void);
int main(void) {
    size_t n = (size_t)200 << 20;
    char c = __VERIFIER_nondet_char();
    if (c == 0)
        return 0;
    char *p = malloc(n);
    if (!p)
        return 0;
    memset(p, c, n - 1);
    p[n - 1] = 0;
    if (strlen(p) != n - 1)
        reach_error();
    free(p);
    return 0;
}
