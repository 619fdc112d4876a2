// unreach-call holds: realloc to 1 GiB keeps the old contents (C11 7.22.3.5), calloc gives zeroed bytes,
// memset and memcpy of large blocks leave what they say. Natively (clang-14
// -fsanitize=address,undefined, ASAN_OPTIONS=allocator_may_return_null=1) the program exits 0. symex once
// ran past --max-time here and grew to 10.5 GB of host memory; large contents now cost what is written.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
    unsigned long n = 1UL << 30;
    char *p = malloc(16);
    if (!p) reach_error();
    p[0] = 42;
    p[15] = 43;
    p = realloc(p, n);
    if (!p) reach_error();
    if (p[0] != 42 || p[15] != 43) reach_error();
    memset(p + 16, 'y', n - 17);
    p[n - 1] = 44;
    char *z = calloc(n, 2);
    if (!z) reach_error();
    if (z[0] != 0 || z[2 * n - 1] != 0 || z[n + 12345] != 0) reach_error();
    memset(z, 'x', 2 * n);
    if (z[0] != 'x' || z[2 * n - 1] != 'x') reach_error();
    memcpy(z + n, p, n);
    if (z[n] != 42 || z[n + 15] != 43 || z[n + 16] != 'y' || z[2 * n - 2] != 'y') reach_error();
    if (z[2 * n - 1] != 44 || z[n - 1] != 'x') reach_error();
    free(z);
    free(p);
    return 0;
}
