// An SV-COMP-style task whose error is reached only through standard input ("go" on stdin):
// `check --stdin 2` finds it, without --stdin (empty stdin) it is unreachable.
#include <stdio.h>
extern void reach_error(void);

int main(void) {
    if (getchar() == 'g' && getchar() == 'o')
        reach_error();
    return 0;
}
