// symex-flags: --sym-arg 1 --validate-tests -- hello world
// Arguments given on the command line come first (`klee prog.bc hello world --sym-arg 1` under KLEE's
// POSIX runtime), then the symbolic one: argc is 4, argv[1] and argv[2] are "hello" and "world", and the
// program branches on argv[3][0] only: 2 paths, 2 tests, one error (line 14).
#include <klee/klee.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 4)
    klee_report_error(__FILE__, __LINE__, "argc", "argc.err");
  if (strcmp(argv[1], "hello") != 0 || strcmp(argv[2], "world") != 0)
    klee_report_error(__FILE__, __LINE__, "args", "args.err");
  if (argv[3][0] == '!')
    klee_report_error(__FILE__, __LINE__, "bang", "bang.err");
  return 0;
}
