#include <stdio.h>
#include <stdlib.h>
int main(void) {
    printf("%d %d %ld %ld\n", abs(-5), abs(5), labs(-7000000000L), labs(0));
    return 0;
}
