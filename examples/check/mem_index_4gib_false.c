// valid-memsafety is violated (valid-deref): a[4 GiB] is far outside the 16-byte block `a` (C11 6.5.6p8:
// the pointer arithmetic is undefined and the write is out of bounds), even if some other object happens
// to lie at that address. Natively (clang-14 -fsanitize=address) the write is a SEGV on an unknown address.
// A model that puts object ids in the address bits above bit 32 used to land this write in `b`.
#include <stdlib.h>
int main(void) {
    char *a = malloc(16);
    char *b = malloc(16);
    if (!a || !b) return 0;
    a[1UL << 32] = 1;
    free(a);
    free(b);
    return 0;
}
