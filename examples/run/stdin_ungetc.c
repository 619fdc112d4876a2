// A scanner reads a number digit by digit and puts the first other byte back with ungetc, for the
// next read to see it again: "4+" (after any leading zeros) aborts.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int c, n = 0;
    while ((c = getchar()) >= '0' && c <= '9')
        n = n * 10 + (c - '0');
    if (ungetc(c, stdin) != c)
        return c == EOF ? 2 : 3;
    int next = getchar();
    if (next != c)
        return 4;
    if (n == 4 && next == '+')
        abort();
    return 0;
}
