// The false twin of kind_count_down.c: `y` counts up by 2, so `x + y == n` is not preserved and
// `y == n` fails for every n > 0. The sum candidate must not survive; the base case finds the
// violation at K = 1 (n = 1 fails natively, n = 0 passes).
#include <assert.h>
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int x = n;
  unsigned int y = 0;
  while (x > 0) {
    x--;
    y += 2;
  }
  assert(y == n);
  return 0;
}
