// symex-flags: --check-overshift=false
// overshift.c's shifts with KLEE's -check-overshift=false: no shift is checked, so nothing forks and no
// error is reported; a shift by at least the width has the value of the solver's shift (0). KLEE: 1 test,
// no error.
#include <stdint.h>
#include <klee/klee.h>

int main(void) {
  unsigned x = 15;
  uint64_t wide = 1;
  unsigned y, z;
  volatile uint64_t result;
  klee_make_symbolic(&y, sizeof y, "y");
  klee_make_symbolic(&z, sizeof z, "z");
  result = x << y;
  result = wide >> z;
  return 0;
}
