// unreach-call is violated (FALSE): the program reaches reach_error when run with two or more arguments
// (argc >= 2), which SV-COMP does not exclude. Natively (clang-14): `./a.out x` reaches reach_error (exit
// 134 with the abort below). symex used to start main with argc = 1 only and so answered UNKNOWN; under
// `check` argc is now an input (any int >= 0, C11 5.1.2.2.1p2).
#include <stdlib.h>
void reach_error(void) { abort(); }
int main(int argc, char **argv) {
    if (argc > 1)
        reach_error();
    return 0;
}
