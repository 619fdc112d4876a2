// Expected: TRUE (unreach-call). A loop nested in another: the inner one adds 10 to `k` one by one,
// the outer one runs it `n` times (at most 10^6, so `k` stays below 2^32); the check after both needs
// an invariant at each loop head (`k == 10*i && i <= n` outside, `k == 10*i + j && j <= 10 && i < n`
// inside). Natively: exits normally for n = 0..=300, 999999 and 10^6.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 1000000)
    return 0;
  unsigned int i = 0;
  unsigned int k = 0;
  while (i < n) {
    unsigned int j = 0;
    while (j < 10) {
      j++;
      k++;
    }
    i++;
  }
  if (k != 10 * n)
    reach_error();
  return 0;
}
