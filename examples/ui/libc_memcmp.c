#include <stdio.h>
#include <string.h>
int main(void) {
    printf("%d %d %d\n", memcmp("abc", "abd", 3) < 0, memcmp("abc", "abd", 2) == 0, memcmp("b", "a", 1) > 0);
    return 0;
}
