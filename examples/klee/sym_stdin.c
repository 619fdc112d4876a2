// symex-flags: --sym-stdin 2 --validate-tests
// KLEE's `--sym-stdin 2`: standard input holds 2 symbolic bytes. Branching on the first: 2 paths, 2
// tests, one error (line 10).
#include <klee/klee.h>
#include <stdio.h>

int main(void) {
  int c = getchar();
  if (c == 'q')
    klee_report_error(__FILE__, __LINE__, "q", "q.err");
  return 0;
}
