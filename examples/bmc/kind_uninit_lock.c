// k-induction over a variable uninitialised before the loop (SV-COMP's locks/test_locks_*): `lk` is
// written in every iteration before it is read, so any value at the loop head (or none) leads to the
// same next head. An uninitialised load is an unconstrained input, which the havoc's fresh value
// covers. `symex bmc --k-induction`: true at K = 1; without: bounded-true.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int p = __VERIFIER_nondet_int();
  int lk;
  while (__VERIFIER_nondet_int()) {
    lk = 0;
    if (p != 0)
      lk = 1;
    if (p != 0) {
      assert(lk == 1);
      lk = 0;
    }
  }
  return 0;
}
