// valid-memsafety: FALSE(valid-memtrack). The block's only pointer is overwritten, so it is lost; the
// global array holds integers, stored as integers, that cover the addresses symex's model gives the first
// 63 objects (`id << 40` on x86-64, `id << 20` on i386). An integer that happens to equal a block's
// address is no pointer to it (SV-COMP's memtrack is about pointers), so it must not hide the leak: symex
// used to scan every word as a possible pointer and answered TRUE. The native build agrees (`symex replay
// --native` of the test, clang-14 -fsanitize=address: LeakSanitizer reports the 16-byte block).
#include <stdlib.h>
unsigned long synthetic[64];
int main(void) {
    unsigned shift = sizeof(void *) == 8 ? 40 : 20;
    for (unsigned long k = 1; k < 64; k++) synthetic[k] = k << shift;
    char *p = malloc(16);
    if (!p) return 0;
    p[0] = 1;
    p = 0;
    return 0;
}
