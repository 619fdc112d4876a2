// top() on a command read from file descriptor 0 with read(2): a short read returns what there is.
#include <stdlib.h>
#include <unistd.h>

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
    ssize_t n = read(0, input, sizeof input);
    if (n != 4)
        return (int)n + 10;
    top(input);
    return 0;
}
