// Expected: TRUE (unreach-call). `s` grows by 3 per iteration up to a nondeterministic `n` (at most
// 10^6, so nothing wraps); the check is after the loop, over its final values: `s == 3*n`. It needs the
// loop-head invariant `s == 3*i && i <= n`, which holds after the loop with `i >= n`. The exploration
// cannot complete (10^6 + 1 values of `n`), no bound covers the loop, and k-induction's step fails
// (its candidates do not state `s == 3*i`). Natively: exits normally for n = 0..=300, 999999, 10^6.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 1000000)
    return 0;
  unsigned int i = 0;
  unsigned int s = 0;
  while (i < n) {
    s += 3;
    i++;
  }
  if (s != 3 * n)
    reach_error();
  return 0;
}
