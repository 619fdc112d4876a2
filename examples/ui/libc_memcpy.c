#include <stdio.h>
#include <string.h>
struct pt { int x, y; };
int main(void) {
    struct pt a = {3, 4}, b;
    memcpy(&b, &a, sizeof a);
    char buf[6];
    memcpy(buf, "hello", 6);
    printf("%d %d %s\n", b.x, b.y, buf);
    return 0;
}
