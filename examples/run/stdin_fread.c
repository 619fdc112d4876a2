// top() on a command read by fread (whole items only: fread(buf, 2, 2, stdin) of 3 bytes returns 1).
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
    size_t items = fread(input, 2, 2, stdin);
    if (items != 2)
        return (int)items + 10;
    top(input);
    return 0;
}
