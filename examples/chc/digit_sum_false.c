// Expected: FALSE (unreach-call). As digit_sum.c, but after a digit sum of 10 the copy is one less:
// `m == n` is suggested (the arrival makes them equal) but not kept. Natively: exits normally for
// n = 0..=18 and reaches the error for n = 19 and 28.
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
    n = m - (m == 10);
  }
  if (m != n || n > 9)
    reach_error();
  return 0;
}
