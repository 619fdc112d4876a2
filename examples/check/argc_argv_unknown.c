// unreach-call is violated natively when the first argument starts with 'x' (`./a.out x` aborts in
// reach_error, clang-14). symex models argc but not argv's strings (bounded string lengths could not give
// a complete exploration): UNKNOWN, never TRUE.
#include <stdlib.h>
void reach_error(void) { abort(); }
int main(int argc, char **argv) {
    if (argc > 1 && argv[1][0] == 'x')
        reach_error();
    return 0;
}
