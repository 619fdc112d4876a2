// `%.Ns` reads at most N bytes: the array needs no NUL (C11 7.21.6.1p8).
#include <stdio.h>
int main(void) {
    char code[3] = {'a', 'b', 'c'};
    int n = printf("[%.2s|%.3s|%.*s]\n", code, code, 1, code);
    printf("%d\n", n);
    return 0;
}
