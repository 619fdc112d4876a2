// unreach-call: the right verdict is FALSE, symex answers UNKNOWN (never TRUE). The pointers are read back
// as integers through a union (C11 6.5.2.3p3 footnote 95: the bytes are reinterpreted), so the comparison is
// on numeric addresses: on x86-64 Linux the stack lies above the heap and reach_error is called (clang-14,
// with and without -fsanitize=address,undefined: exit through reach_error). symex used to answer TRUE from
// its own layout (locals get smaller object ids); an integer loaded from bytes stored as a pointer is now an
// observed address, as a cast is, and a decision on it is UNKNOWN.
#include <stdint.h>
#include <stdlib.h>
extern void reach_error(void);
union U {
    int *p;
    uintptr_t u;
};
int main(void) {
    int x = 0;
    union U s, h;
    s.p = &x;
    h.p = malloc(sizeof(int));
    if (!h.p) return 0;
    if (s.u > h.u) reach_error();
    free(h.p);
    return x;
}
