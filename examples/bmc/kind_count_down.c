// k-induction with a sum invariant: `x` counts down from a nondeterministic `n` while `y` counts up,
// so `x + y == n` holds at every loop head, and `y == n` after the loop (where `x == 0`). No guard
// relation gives it (the guard `x > 0` compares with a constant). `symex bmc --k-induction`: true
// (the candidate `x + y == n` survives Houdini); without: bounded-true. SV-COMP's
// loops/count_up_down-1.c.
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int x = n;
  unsigned int y = 0;
  while (x > 0) {
    x--;
    y++;
  }
  assert(y == n);
  return 0;
}
