#include <stdio.h>
#include <string.h>
int main(void) {
    const char *s = "hello";
    printf("%ld %d %ld\n", (long)(strchr(s, 'l') - s), strchr(s, 'z') == NULL, (long)(strchr(s, '\0') - s));
    return 0;
}
