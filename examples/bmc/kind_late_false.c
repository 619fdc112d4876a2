// The assertion fails only at the 1000th iteration (n >= 1000): no inductive step may prove it, and a
// native run with n = 1000 fails where n = 999 passes.
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0;
  while (i < n) {
    i++;
    assert(i != 1000);
  }
  return 0;
}
