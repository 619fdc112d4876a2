// A 200 MiB string filled by memset with an input byte c: every answer of strlen, strchr, strrchr,
// strstr, memchr, memcmp, strcpy and memcpy follows from c alone, so reach_error is unreachable (TRUE
// natively: clang-14 -fsanitize=address,undefined runs it to exit 0 for c = 0, 61, 122 and 183). symex's
// models take a fill with a symbolic byte as one range, deciding its byte once: the answer needs no
// time limit.
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
    size_t len = c ? n - 1 : 0;
    if (strlen(p) != len || strchr(p, 0) != p + len)
        reach_error();
    if (c && (strchr(p, c) != p || strrchr(p, c) != p + n - 2 || memchr(p, c, n) != p))
        reach_error();
    if (c != 'z' && (strchr(p, 'z') != NULL || strstr(p, "zz") != NULL))
        reach_error();
    if (c == 'z' && strstr(p, "zz") != p)
        reach_error();
    strcpy(q, p);
    if (strlen(q) != len || memcmp(q, p, len + 1) != 0)
        reach_error();
    memcpy(q + 1, p, n - 2);
    if (c && (q[n - 1] != 0 || strlen(q) != n - 1))
        reach_error();
    free(p);
    free(q);
    return 0;
}
