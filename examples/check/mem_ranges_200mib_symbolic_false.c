// A 200 MiB string filled by memset with an input byte c: strrchr finds 'z' at its last byte exactly
// when c is 'z', so reach_error is reached (FALSE natively: clang-14 -fsanitize=address,undefined runs
// it into reach_error for c = 122, the input 2). symex's models take the fill as one range and find the
// input that makes c 'z'.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
    size_t n = (size_t)200 << 20;
    char c = (char)((unsigned)__VERIFIER_nondet_int() * 61u);
    char *p = malloc(n);
    char *q = malloc(n);
    if (!p || !q)
        return 0;
    memset(p, c, n - 1);
    p[n - 1] = 0;
    strcpy(q, p);
    if (strrchr(q, 'z') == q + n - 2)
        reach_error();
    free(p);
    free(q);
    return 0;
}
