#include <stdio.h>
#include <string.h>
int main(void) {
    const char *s = "hello";
    printf("%ld %d\n", (long)(strrchr(s, 'l') - s), strrchr(s, 'q') == NULL);
    return 0;
}
