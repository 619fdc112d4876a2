// 30 independent input-dependent branches before an assertion: 2^30 paths for `symex run`, one formula
// (and one query) for `symex bmc`. The assertion fails only when all 30 inputs are positive: false.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int count = 0;
  for (int i = 0; i < 30; i++) {
    if (__VERIFIER_nondet_int() > 0) {
      count++;
    }
  }
  assert(count < 30);
  return 0;
}
