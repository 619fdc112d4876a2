// Expected: TRUE (unreach-call). Two loops in sequence: the first counts `k` up with `i` to a
// nondeterministic `n` (at most 10^6, so nothing wraps), the second counts it down with `j` from `n`;
// the check after both needs an invariant at each loop head (`k == i && i <= n`, then `k == j`).
// Natively: exits normally for n = 0..=300, 999999 and 10^6.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 1000000)
    return 0;
  unsigned int i = 0;
  unsigned int k = 0;
  while (i < n) {
    i++;
    k++;
  }
  unsigned int j = n;
  while (j > 0) {
    j--;
    k--;
  }
  if (k != 0)
    reach_error();
  return 0;
}
