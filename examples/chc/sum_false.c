// Unsafe: `s` is `2*i`, and the assertion fails when the loop runs 5 times (n = 5).
// `symex bmc --engine chc`: false, with a test that fails natively.
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0;
  unsigned int s = 0;
  while (i < n) {
    s += 2;
    i++;
    assert(s != 10);
  }
  return 0;
}
