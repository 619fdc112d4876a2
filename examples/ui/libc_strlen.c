#include <stdio.h>
#include <string.h>
int main(void) {
    char s[10] = "four";
    printf("%zu %zu\n", strlen(s), strlen(""));
    return 0;
}
