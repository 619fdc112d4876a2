// A test's `stdin` input is the program's standard input on replay: getchar, fgets, scanf and fread take
// its bytes in order, and reads past its end see EOF.
#include <stdio.h>

int main(void) {
    char line[16], rest[8] = {0};
    int x = 0, y = 0;
    int c = getchar();
    char *l = fgets(line, sizeof line, stdin);
    int n = scanf("%d %d", &x, &y);
    size_t k = fread(rest, 1, sizeof rest - 1, stdin);
    printf("c=%c line=%s", c, l ? line : "(null)\n");
    printf("scanf=%d x=%d y=%d\n", n, x, y);
    printf("fread=%zu rest=%s eof=%d next=%d\n", k, rest, feof(stdin) != 0, getchar());
    return 0;
}
