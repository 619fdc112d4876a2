// A disjunctive invariant (Gulwani's example): `y` stays 50 while `x <= 50`, then follows `x`, so at the
// loop head `(x <= 50 && y == 50) || (50 < x && x <= 100 && y == x)`; no conjunction of linear facts is
// inductive. `symex bmc --engine chc`: true.
#include <assert.h>

int main(void) {
  int x = 0;
  int y = 50;
  while (x < 100) {
    x++;
    if (x > 50)
      y++;
  }
  assert(y == 100);
  return 0;
}
