// k-induction: `i` counts to a nondeterministic `n` (any unsigned int, so no bound covers the loop).
// `assert(i <= n)` after the loop needs the invariant `i <= n`, read from the loop guard; `x == 2*i`
// inside the loop is 1-inductive. `symex bmc --k-induction`: true; without: bounded-true.
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0;
  unsigned int x = 0;
  while (i < n) {
    assert(x == 2 * i);
    x += 2;
    i++;
  }
  assert(i <= n);
  return 0;
}
