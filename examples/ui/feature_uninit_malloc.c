// malloc'd bytes are uninitialised: reading them takes inputs (zero when the test has none).
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    unsigned char *p = malloc(4);
    p[1] = 9;
    printf("%d %d %d\n", p[0], p[1], p[2]);
    free(p);
    return 0;
}
