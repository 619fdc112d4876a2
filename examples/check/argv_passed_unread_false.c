// unreach-call is violated (FALSE) when main runs with four or more arguments: `main` hands argv on to
// `count`, which never reads it (as SV-COMP's bubble_sort-1.c hands it to q1), so argc is the only input
// and no string needs a model. Natively (clang-14) `./a.out a b c` aborts in reach_error and every
// smaller argument count exits 0.
#include <stdlib.h>
void reach_error(void) { abort(); }
static int count(int argc, char **argv) {
    int n = 0;
    for (int i = 1; i < argc && i < 8; i++)
        n++;
    return n;
}
int main(int argc, char **argv) {
    if (count(argc, argv) >= 3)
        reach_error();
    return 0;
}
