#include <stdio.h>
#include <string.h>
int main(void) {
    const char *s = "abababc";
    printf("%ld %d %ld\n", (long)(strstr(s, "abc") - s), strstr(s, "abd") == NULL, (long)(strstr(s, "") - s));
    return 0;
}
