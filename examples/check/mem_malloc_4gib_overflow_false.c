// valid-memsafety is violated (valid-deref): the write one past the end of a 4 GiB block. Natively
// clang-14 -fsanitize=address (ASAN_OPTIONS=allocator_may_return_null=1) reports a heap-buffer-overflow
// WRITE of size 1 there. The block is allocated, not NULL (symex returned NULL for 4 GiB and more).
#include <stdlib.h>
int main(void) {
    unsigned long n = 1UL << 32;
    char *p = malloc(n);
    if (!p) return 0;
    p[n - 1] = 1;
    p[n] = 2;
    free(p);
    return 0;
}
