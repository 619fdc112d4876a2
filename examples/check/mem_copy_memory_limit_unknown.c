// unreach-call: the right verdict is TRUE (clang-14 with and without -fsanitize=address,undefined: exit 0,
// 64 MiB copied into eight blocks, each copy's last byte is 1); symex answers UNKNOWN with the reason "memory
// limit of N MiB reached". Each `memcpy` lands one byte past a page boundary, so symex cannot share pages,
// and its source is not one uniform range (one byte in the middle differs), so it is not a fill: symex
// copies 64 MiB byte by byte (about 1 GiB of host memory each): before the budget the process died
// ("memory allocation failed", abort) under `ulimit -v 3145728`. `check`'s memory budget (2000 MiB, or half
// of `ulimit -v` if lower) now ends the run before the host refuses memory.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
    unsigned long n = 1UL << 26;
    char *src = malloc(n);
    char *dst[8];
    if (!src) return 0;
    memset(src, 1, n);
    src[n / 2] = 2;
    for (int i = 0; i < 8; i++) {
        dst[i] = malloc(n + 1);
        if (!dst[i]) return 0;
        memcpy(dst[i] + 1, src, n);
        if (dst[i][n] != 1) reach_error();
    }
    for (int i = 0; i < 8; i++) free(dst[i]);
    free(src);
    return 0;
}
