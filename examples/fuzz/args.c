// A command line parser (`symex fuzz --arg 3 --arg 2`): the option "-n" followed by a count of one or two
// decimal digits; a count above 42 overruns the table.
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3)
        return 2;
    if (strcmp(argv[1], "-n") != 0)
        return 1;
    int n = 0;
    for (const char *p = argv[2]; *p; p++) {
        if (*p < '0' || *p > '9')
            return 1;
        n = n * 10 + (*p - '0');
    }
    int seen[43];
    memset(seen, 0, sizeof seen);
    if (n > 42)
        abort();
    seen[n] = 1;
    return seen[0];
}
