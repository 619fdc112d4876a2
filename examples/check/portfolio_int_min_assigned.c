// Expected: FALSE (no-overflow), as SV-COMP's signedintegeroverflow-regression/PostfixDecrement.
// The unsuffixed literal 2^31 below is a `long` in C, but negated it is a whole right-hand side:
// no arithmetic happens in `long` and the value assigned is exactly INT_MIN, so the program's
// meaning is clear (unlike portfolio_int_min_literal.c) and `x--` overflows `int` (the native
// -fsanitize=signed-integer-overflow build reports it).
#include <stdio.h>

int main(void) {
  int x = -2147483648;
  x--;
  printf("%d\n", x);
  return 0;
}
