// Blocks of 200 MiB filled by memset: the string and memory functions over them give the C library's
// answers, so reach_error is unreachable (TRUE natively: clang-14 -fsanitize=address,undefined runs it to
// exit 0). symex's models step over a constant fill as one range: the answer comes without a time limit,
// in about the time of a small buffer.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
    size_t n = (size_t)200 << 20;
    char *a = malloc(n);
    char *b = malloc(n);
    if (!a || !b)
        return 0;
    memset(a, 'a', n - 1);
    a[n - 1] = 0;
    memset(b, 'a', n - 1);
    b[n - 1] = 0;
    if (strlen(a) != n - 1 || strnlen(a, n / 2) != n / 2)
        reach_error();
    if (memchr(a, 0, n) != a + n - 1 || memchr(a, 'b', n) != NULL)
        reach_error();
    if (memcmp(a, b, n) != 0 || strcmp(a, b) != 0)
        reach_error();
    b[n / 2] = 'b';
    if (memcmp(a, b, n) >= 0 || strncmp(a, b, n / 2) != 0 || strcmp(b, a) <= 0)
        reach_error();
    if (memchr(b, 'b', n) != b + n / 2)
        reach_error();
    free(a);
    free(b);
    return 0;
}
