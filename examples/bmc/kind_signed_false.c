// `i <= n` after the loop fails when n < 0 (the loop is not entered): the candidate invariant `i <= n`
// does not hold at the first arrival, and the answer is false (n negative), never true.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0;
  while (i < n) {
    i++;
  }
  assert(i <= n);
  return 0;
}
