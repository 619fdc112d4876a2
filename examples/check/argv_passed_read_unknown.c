// unreach-call is violated natively when the first argument starts with 'x' (`./a.out x` aborts in
// reach_error, clang-14). `main` passes argv to `first`, which reads its strings: symex models argc but
// not argv's strings, so the answer is UNKNOWN, never TRUE, for `check` and `bmc` alike.
#include <stdlib.h>
void reach_error(void) { abort(); }
static char first(int argc, char **argv) { return argc > 1 ? argv[1][0] : 0; }
int main(int argc, char **argv) {
    if (first(argc, argv) == 'x')
        reach_error();
    return 0;
}
