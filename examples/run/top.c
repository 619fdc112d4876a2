// SAGE's top(char input[4]) (Godefroid, Levin, Molnar): 16 paths, 5 of which abort (cnt >= 3).
#include <stdlib.h>
void klee_make_symbolic(void *, unsigned long, const char *);

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
    klee_make_symbolic(input, sizeof input, "input");
    top(input);
    return 0;
}
