// unreach-call: the right verdict is FALSE, symex answers UNKNOWN (never TRUE). A 16-byte union holding a
// heap pointer is passed and returned by value: clang passes it as two integers and returns it as the
// aggregate `{ i64, i64 }` (an aggregate load in `pass`, `extractvalue` in `main`), and the union's integer
// member then reads the pointer's bytes. A heap block's address is never a multiple of 2^40 on x86-64
// Linux, so reach_error is called (clang-14, with and without -fsanitize=address,undefined). symex must
// not read its own synthetic address (`id << 40`, low bits zero) as a number: the integers carry the
// pointer's provenance through the by-value copies, and a decision on them is UNKNOWN.
#include <stdlib.h>
extern void reach_error(void);
union U {
    unsigned long u[2];
    char *p[2];
};
static union U pass(union U v) { return v; }
int main(void) {
    union U s;
    s.p[0] = malloc(16);
    s.p[1] = 0;
    if (!s.p[0]) return 0;
    union U t = pass(s);
    if ((t.u[0] & 0xffffffffffUL) != 0) reach_error();
    free(s.p[0]);
    return 0;
}
