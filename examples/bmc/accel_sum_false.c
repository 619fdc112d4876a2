// Expected: FALSE (unreach-call), found by loop acceleration: `s` sums 0 + 1 + ... + (n - 1), which is
// n(n - 1)/2 modulo 2^32 (`s` after k iterations is the progression's closed form k(k - 1)/2), while
// the check computes `n * (n - 1)` in 32 bits before halving: the two differ exactly when the quotient
// of n(n - 1) by 2^32 is odd, first at n = 65537 (65,537 iterations); inputs above 2^17 end at once.
// Natively: n = 65537 reaches reach_error, n = 65536 does not.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int s = 0;
  if (n > 0x20000)
    return 0;
  for (unsigned int i = 0; i < n; i++)
    s += i;
  if (s != n * (n - 1) / 2)
    reach_error();
  return 0;
}
