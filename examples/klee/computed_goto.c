// Computed goto (GNU C's labels as values: `&&label`, `goto *p`), as in KLEE's
// Feature/AddressOfLabels.c and AddressOfLabelsSymbolic.c. A table of three label addresses read
// at a symbolic index below 3: KLEE forks once per label the pointer may equal, so 3 tests and no
// error (each returns its label's number; the native build returns 10, 11 and 12 for i = 0, 1, 2).
// A pointer that is none of the labels would be KLEE's "indirectbr: illegal label address".
#include <klee/klee.h>

int main(void) {
  void *labels[3];
  labels[0] = &&zero;
  labels[1] = &&one;
  labels[2] = &&two;
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 3);
  goto *labels[i];
zero:
  return 10;
one:
  return 11;
two:
  return 12;
}
