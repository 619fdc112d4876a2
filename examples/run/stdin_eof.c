// Reads stdin to its end: with --stdin N the loop runs N times and each byte is a newline or not,
// so 2^N paths, each exiting with its number of lines.
#include <stdio.h>

int main(void) {
    int c, lines = 0;
    while ((c = getchar()) != EOF) {
        if (c == '\n')
            lines++;
    }
    if (!feof(stdin))
        return 100;
    return lines;
}
