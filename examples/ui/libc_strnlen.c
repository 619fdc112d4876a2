#include <stdio.h>
#include <string.h>
int main(void) {
    char s[4] = {'a', 'b', 'c', 'd'};
    printf("%zu %zu\n", strnlen(s, 4), strnlen("xy", 10));
    return 0;
}
