// unreach-call holds: a 3.75 GiB block is allocated (natively: glibc returns it on this 24 GiB machine;
// clang-14 -fsanitize=address,undefined with ASAN_OPTIONS=allocator_may_return_null=1 exits 0), written
// at both ends and in the middle, and read back; the bytes never written are never read. symex once
// requested 60 GiB of host memory for it and aborted (exit 134); stored lazily it costs a few pages.
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
    unsigned long n = (1UL << 32) - (1UL << 28);
    unsigned char *p = malloc(n);
    if (!p) reach_error();
    for (unsigned long i = 0; i < n; i += n / 8) p[i] = (unsigned char)(i >> 28);
    p[n - 1] = 0xab;
    unsigned sum = 0;
    for (unsigned long i = 0; i < n; i += n / 8) sum += p[i];
    if (sum != 0 + 1 + 3 + 5 + 7 + 9 + 11 + 13 || p[n - 1] != 0xab) reach_error();
    free(p);
    return 0;
}
