// A write just before a heap block: the out-of-bounds access is in the block `x` points to, at offset -4.
// Natively (clang-14 -fsanitize=address): "heap-buffer-overflow ... 4 bytes to the left of 16-byte region".
#include <stdlib.h>

int main(void) {
    int *x = malloc(16);
    x[-1] = 3;
    free(x);
    return 0;
}
