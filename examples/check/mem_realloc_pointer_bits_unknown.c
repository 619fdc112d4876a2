// unreach-call: the right verdict is FALSE, symex answers UNKNOWN (never TRUE). A pointer stored in a heap
// block moves with it when `realloc` copies the block; its bytes are then read back through a union as
// an integer, so the test is on the platform's address bits: a heap block's address is never a multiple
// of 2^40 on x86-64 Linux, and reach_error is called (clang-14, with and without
// -fsanitize=address,undefined). symex must not read its own synthetic address (`id << 40`, low bits zero)
// as a number: the integer loaded from bytes stored as a pointer is an observed address, also after the
// copy, and a decision on it is UNKNOWN.
#include <stdint.h>
#include <stdlib.h>
extern void reach_error(void);
union U {
    char *p;
    uintptr_t u;
};
int main(void) {
    union U *a = malloc(sizeof *a);
    if (!a) return 0;
    a->p = malloc(16);
    union U *b = realloc(a, 4 * sizeof *b);
    if (!b) return 0;
    if ((b->u & 0xffffffffffUL) != 0) reach_error();
    free(b->p);
    free(b);
    return 0;
}
