#include <stdio.h>
#include <string.h>
int main(void) {
    char s[] = "abcdefgh";
    memmove(s + 2, s, 5);
    puts(s);
    memmove(s, s + 3, 4);
    puts(s);
    return 0;
}
