#include <stdio.h>
#include <string.h>
int main(void) {
    unsigned char b[8];
    memset(b, 0xab, sizeof b);
    memset(b + 2, 0, 3);
    for (int i = 0; i < 8; i++) printf("%02x", b[i]);
    putchar('\n');
    return 0;
}
