// Expected: TRUE (unreach-call). Repeated sums of decimal digits: the outer loop's head always has
// `m == n` (set equal before it, and `n = m` after each inner loop), which the check after it needs;
// the inner loop changes both and needs no invariant. Natively: exits normally for n = 0..=5000 and
// 0xffffffff.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int m = n;
  while (n > 9) {
    m = 0;
    while (n > 0) {
      m += n % 10;
      n /= 10;
    }
    n = m;
  }
  if (m != n || n > 9)
    reach_error();
  return 0;
}
