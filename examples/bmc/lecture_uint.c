// The lecture's second BMC example (example 2): the sum is an `unsigned int`, which 255 values of at most
// 255 cannot wrap. `symex bmc --unwind 3`: bounded-true (n may exceed 3); `--unwind 256`: true (n <= 255).
#include <assert.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  if (n == 0) {
    return 0;
  }
  unsigned char v = 0;
  unsigned int s = 0;
  unsigned int i = 0;
  while (i < n) {
    v = __VERIFIER_nondet_uchar();
    s += v;
    ++i;
  }
  assert(s >= v);
  return 0;
}
