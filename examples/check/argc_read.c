// unreach-call is violated natively when the program runs with two or more arguments (argc >= 2), which
// SV-COMP does not exclude; symex starts main with argc = 1 only, so it must not answer TRUE: UNKNOWN.
// Natively (clang-14): `./a.out x` reaches reach_error (exit 134 with the abort below).
#include <stdlib.h>
void reach_error(void) { abort(); }
int main(int argc, char **argv) {
    if (argc > 1)
        reach_error();
    return 0;
}
