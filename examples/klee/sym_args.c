// symex-flags: --sym-args 0 2 1 --validate-tests
// KLEE's `--sym-args 0 2 1`: zero to two further arguments of one symbolic byte each, so argc is 1, 2
// or 3. With three arguments the program branches on argv[2][0]: 4 paths, 4 tests, one error (line 10).
#include <klee/klee.h>

int main(int argc, char **argv) {
  if (argc < 1 || argc > 3)
    klee_report_error(__FILE__, __LINE__, "argc", "argc.err");
  if (argc == 3 && argv[2][0] == 'x')
    klee_report_error(__FILE__, __LINE__, "x", "x.err");
  return argc;
}
