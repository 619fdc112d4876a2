// Two 200 MiB blocks filled alike but for their last bytes: memcmp is negative (0 < 'c'), so reach_error
// is reached (FALSE natively: clang-14 -fsanitize=address,undefined runs it into reach_error). symex's
// models step over the common constant fill as one range and find the difference at the end.
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
    size_t n = (size_t)200 << 20;
    char *a = malloc(n);
    char *c = malloc(n);
    if (!a || !c)
        return 0;
    memset(a, 'a', n - 1);
    a[n - 1] = 0;
    memset(c, 'a', n - 1);
    c[n - 1] = 'c';
    if (memcmp(a, c, n) < 0)
        reach_error();
    free(a);
    free(c);
    return 0;
}
