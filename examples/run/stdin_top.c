// SAGE's top() (Godefroid, Levin, Molnar) with its 4-byte command read from stdin by getchar:
// with --stdin 4, 16 paths, 5 of which abort (cnt >= 3); with fewer bytes the read stops at EOF (1 path).
#include <stdio.h>
#include <stdlib.h>

void top(char input[4]) {
    int cnt = 0;
    if (input[0] == 'b') cnt++;
    if (input[1] == 'a') cnt++;
    if (input[2] == 'd') cnt++;
    if (input[3] == '!') cnt++;
    if (cnt >= 3) abort();
}

int main(void) {
    char input[4];
    for (int i = 0; i < 4; i++) {
        int c = getchar();
        if (c == EOF)
            return 1;
        input[i] = (char)c;
    }
    top(input);
    return 0;
}
