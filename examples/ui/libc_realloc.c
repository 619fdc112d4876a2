#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int *a = realloc(NULL, 2 * sizeof *a);
    a[0] = 10; a[1] = 20;
    a = realloc(a, 4 * sizeof *a);
    a[2] = 30; a[3] = 40;
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    a = realloc(a, sizeof *a);
    printf("%d\n", a[0]);
    free(a);
    return 0;
}
