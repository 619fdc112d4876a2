#include <stdio.h>
#include <stdlib.h>
int main(void) {
    printf("%d %d %d\n", atoi("  -123abc"), atoi("+42"), atoi("x"));
    return 0;
}
