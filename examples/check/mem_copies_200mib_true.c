// The copying and searching functions over 200 MiB blocks filled by memset: strchr, strrchr, strstr,
// strcpy, strncpy, strcat, memcpy and memmove give the C library's answers, so reach_error is unreachable
// (TRUE natively: clang-14 -fsanitize=address,undefined runs it to exit 0). symex's models take a
// constant fill as one range (a copy of one is a fill of the destination), so the answer needs no time
// limit.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
    size_t n = (size_t)200 << 20;
    char *a = malloc(n);
    char *b = malloc(n);
    char *c = malloc(n);
    if (!a || !b || !c)
        return 0;
    memset(a, 'a', n - 1);
    a[n - 1] = 0;
    if (strchr(a, 'a') != a || strrchr(a, 'a') != a + n - 2 || strchr(a, 0) != a + n - 1)
        reach_error();
    if (strchr(a, 'b') != NULL || strrchr(a, 'b') != NULL)
        reach_error();
    if (strstr(a, "aaa") != a || strstr(a, "ab") != NULL)
        reach_error();
    strcpy(b, a);
    if (strlen(b) != n - 1 || memcmp(a, b, n) != 0)
        reach_error();
    b[n - 3] = 'b';
    if (strstr(b, "ab") != b + n - 4 || strrchr(b, 'a') != b + n - 2)
        reach_error();
    strncpy(c, "xy", n);
    if (strlen(c) != 2 || memchr(c + 2, 'a', n - 2) != NULL)
        reach_error();
    strcat(c, a + 2);
    if (strlen(c) != n - 1 || c[1] != 'y' || c[2] != 'a' || c[n - 2] != 'a')
        reach_error();
    memcpy(c + 1, a, n - 2);
    if (c[0] != 'x' || strlen(c) != n - 1 || strrchr(c, 'x') != c)
        reach_error();
    memmove(a + 5, a + 3, n - 8);
    if (strlen(a) != n - 1 || strchr(a, 0) != a + n - 1)
        reach_error();
    memset(c, 0, n);
    if (memchr(c, 'a', n) != NULL || strlen(c) != 0)
        reach_error();
    free(a);
    free(b);
    free(c);
    return 0;
}
