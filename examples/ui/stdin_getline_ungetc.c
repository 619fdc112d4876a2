// getline's block starts at 120 bytes and at least doubles when a line does not fit; ungetc puts a
// byte back for the next read (also after the end of input), and ungetc(EOF) puts nothing back.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t len = getline(&line, &cap, stdin);
    printf("len=%zd cap=%zu last=%d\n", len, cap, line[len - 1]);
    len = getline(&line, &cap, stdin);
    printf("len=%zd cap=%zu line=%s\n", len, cap, line);
    int c = getchar();
    printf("c=%d eof=%d ungetc=%d eof=%d\n", c, feof(stdin) != 0, ungetc('z', stdin), feof(stdin) != 0);
    printf("again=%c ungetc(EOF)=%d next=%d\n", getchar(), ungetc(EOF, stdin), getchar());
    len = getline(&line, &cap, stdin);
    printf("len=%zd cap=%zu\n", len, cap);
    free(line);
    return 0;
}
