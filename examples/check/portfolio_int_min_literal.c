// Expected: UNKNOWN (no-overflow) from `check` and from `bmc --property no-overflow` alike (SV-COMP's
// signedintegeroverflow-regression/AdditionIntMin). `-2147483648` is the negation of 2147483648, a
// `long` in C (it exceeds INT_MAX and has no suffix), so the sum is computed in `long` and no `int`
// overflows as written (the native -fsanitize=signed-integer-overflow build exits normally); the task
// expects FALSE, reading the literal as INT_MIN. Which semantics is meant is unclear: not decided.
#include <stdio.h>

int main(void) {
  int x = (-2147483648 + -1) + 23;
  printf("%d\n", x);
  return 0;
}
