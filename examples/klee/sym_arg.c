// symex-flags: --sym-arg 2 --validate-tests
// KLEE's POSIX runtime with `--sym-arg 2`: argv[1] is 2 symbolic bytes and a terminating NUL, so argc is
// 2. Three paths: argv[1][0] is not 'h'; it is 'h' and argv[1][1] is not 'i'; it is "hi" (argv[1][2] is
// the terminator), which reports an error (test000N.hi.err). 3 tests.
#include <klee/klee.h>

int main(int argc, char **argv) {
  if (argc != 2)
    klee_report_error(__FILE__, __LINE__, "argc", "argc.err");
  if (argv[1][0] == 'h' && argv[1][1] == 'i' && argv[1][2] == 0)
    klee_report_error(__FILE__, __LINE__, "hi", "hi.err");
  return 0;
}
