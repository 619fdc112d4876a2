#include <stdio.h>
#include <string.h>
int main(void) {
    printf("%d %d %d\n", strcmp("abc", "abc") == 0, strcmp("abc", "abd") < 0, strcmp("abcd", "abc") > 0);
    return 0;
}
