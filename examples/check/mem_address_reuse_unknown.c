// unreach-call depends on the allocator: glibc hands a freed 16-byte block back to the next malloc of that
// size, so natively (clang-14, glibc) the two addresses are equal and reach_error is called (abort, exit
// 134), while under clang-14 -fsanitize=address the freed block is quarantined and the program exits 0.
// C11 6.2.4p2 makes the freed pointer's value indeterminate and 6.3.2.3p6 the integer value of a pointer
// implementation-defined, so neither TRUE nor FALSE holds for every implementation. symex used to answer
// TRUE (its addresses are never reused); a decision that depends on a numeric address is now UNKNOWN.
#include <stdint.h>
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
    char *p = malloc(16);
    if (!p) return 0;
    uintptr_t a = (uintptr_t)p >> 4;
    free(p);
    char *q = malloc(16);
    if (!q) return 0;
    if (((uintptr_t)q >> 4) == a) reach_error();
    free(q);
    return 0;
}
