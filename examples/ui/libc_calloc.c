#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int *a = calloc(4, sizeof *a);
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    free(a);
    return 0;
}
