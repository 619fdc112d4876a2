// Without a `stdin` input (a test of a run without --stdin) standard input is empty: every read sees EOF.
#include <stdio.h>
#include <unistd.h>

int main(void) {
    char buf[4];
    int x;
    printf("getchar=%d\n", getchar());
    printf("fgets=%s\n", fgets(buf, sizeof buf, stdin) ? "line" : "null");
    printf("scanf=%d\n", scanf("%d", &x));
    printf("fread=%zu read=%zd\n", fread(buf, 1, sizeof buf, stdin), read(0, buf, sizeof buf));
    printf("feof=%d\n", feof(stdin) != 0);
    return 0;
}
