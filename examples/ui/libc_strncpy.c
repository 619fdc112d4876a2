#include <stdio.h>
#include <string.h>
int main(void) {
    char d[8];
    memset(d, 'z', sizeof d);
    strncpy(d, "ab", 5);
    printf("%d %d %d %c\n", d[1], d[2], d[4], d[5]);
    return 0;
}
