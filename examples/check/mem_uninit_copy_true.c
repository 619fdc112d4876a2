// unreach-call holds: a copy of indeterminate bytes holds the same bytes. `s2 = s1` copies s1's object
// representation and memcpy copies bytes (C11 6.2.6.1p4, 7.24.2.1); `unsigned char` has no trap
// representations (6.2.6.1p3-5), so each comparison reads two copies of one unspecified value, and
// SV-COMP reads an uninitialised object as one nondeterministic value. A model that made every read of a
// never-written byte a fresh input reached reach_error here. Natively (clang-14 -fsanitize=address,undefined)
// the program exits 0.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
struct pair {
    unsigned char a, b;
};
int main(void) {
    struct pair s1, s2;
    s2 = s1;
    if (s1.a != s2.a) reach_error();
    unsigned char *p = malloc(4), *q = malloc(4);
    if (!p || !q) return 0;
    memcpy(q, p, 4);
    if (p[2] != q[2]) reach_error();
    free(p);
    free(q);
    return 0;
}
