// Three independent branches: 8 paths. With --max-forks 2 KLEE forks twice and then follows one side
// of every later branch ("skipping fork (max-forks reached)"): 3 paths, 3 tests.
#include <klee/klee.h>

int main(void) {
  char c[3];
  klee_make_symbolic(c, sizeof c, "c");
  int n = 0;
  if (c[0] == 'a')
    n++;
  if (c[1] == 'b')
    n++;
  if (c[2] == 'c')
    n++;
  return n;
}
