// unreach-call depends on the platform: comparing pointers to two different objects with `<` is undefined
// (C11 6.5.8p5) and their order is the layout's. Natively on x86-64 Linux (clang-14, glibc, with or without
// -fsanitize=address,undefined) the stack lies above the heap, `&x < p` is false and the program exits 0;
// symex's layout (object ids in the high address bits, locals allocated first) made it true and answered
// FALSE from its own layout. The order of two objects is now an address-dependent decision: UNKNOWN.
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
    int x = 0;
    int *p = malloc(sizeof *p);
    if (!p) return 0;
    if (&x < p) reach_error();
    free(p);
    return x;
}
