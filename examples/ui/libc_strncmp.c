#include <stdio.h>
#include <string.h>
int main(void) {
    printf("%d %d\n", strncmp("abcx", "abcy", 3) == 0, strncmp("abcx", "abcy", 4) < 0);
    return 0;
}
