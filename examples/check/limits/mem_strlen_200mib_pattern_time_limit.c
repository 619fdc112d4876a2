// A 200 MiB string of two alternating input bytes c, c + 1 (built by doubling copies), neither NUL:
// strlen is n - 1 for every input, so reach_error is unreachable (TRUE natively: clang-14
// -fsanitize=address,undefined runs it to exit 0 for c = 61, 122 and 183). No range of it is uniform,
// so the model of strlen walks it byte by byte, each byte a decision over c; under --max-time it stops
// at the deadline (the verdict is then UNKNOWN, reached within the limit).
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
    size_t n = (size_t)200 << 20;
    unsigned char c = (unsigned char)((unsigned)__VERIFIER_nondet_int() * 61u);
    if (c == 0 || c == 255)
        return 0;
    char *p = malloc(n);
    if (!p)
        return 0;
    p[0] = (char)c;
    p[1] = (char)(c + 1);
    for (size_t k = 2; k < n; k *= 2)
        memcpy(p + k, p, k < n - k ? k : n - k);
    p[n - 1] = 0;
    if (strlen(p) != n - 1)
        reach_error();
    free(p);
    return 0;
}
