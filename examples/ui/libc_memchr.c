#include <stdio.h>
#include <string.h>
int main(void) {
    char buf[64];
    memset(buf, 'x', sizeof buf);
    buf[40] = 'y';
    printf("%ld %d %ld %d\n", (long)((char *)memchr(buf, 'y', sizeof buf) - buf),
           memchr(buf, 'y', 40) == NULL, (long)((char *)memchr(buf + 41, 'x', 23) - buf),
           memchr(buf, 'z', sizeof buf) == NULL);
    return 0;
}
