// No flags: KLEE checks shifts by default (--check-overshift), and so does `symex run`.
// A shift by at least the width of its operand (C11 6.5.7p3: undefined) under KLEE's
// --check-overshift (on by default): KLEE checks each shift before it, and a path on which the
// amount may reach the width ends in an error reported at the shift's line with the message "overshift
// error" and the file testN.overshift.err (KLEE's test/Feature/OvershiftCheck.c). Here: y >= 32
// (line 19), then z >= 64 on a 64-bit operand (line 22); the shifts by a constant in range are not
// errors. KLEE: 3 tests, 2 errors.
#include <stdint.h>
#include <klee/klee.h>

int main(void) {
  unsigned x = 15;
  uint64_t wide = 1;
  unsigned y, z;
  volatile uint64_t result;
  klee_make_symbolic(&y, sizeof y, "y");
  klee_make_symbolic(&z, sizeof z, "z");
  result = x << 3;
  result = x << y;
  result = wide >> 63;
  result = wide << 40;
  result = wide >> z;
  return 0;
}
