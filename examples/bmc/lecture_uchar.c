// The lecture's first BMC example (IA159, "Bounded model checking", example 1): with an `unsigned char`
// sum, two inputs can wrap it below the last one (224 + 63 = 31 < 63). `symex bmc --unwind 3`: false.
#include <assert.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  if (n == 0) {
    return 0;
  }
  unsigned char v = 0;
  unsigned char s = 0;
  unsigned int i = 0;
  while (i < n) {
    v = __VERIFIER_nondet_uchar();
    s += v;
    ++i;
  }
  assert(s >= v);
  return 0;
}
