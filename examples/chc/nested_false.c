// Expected: FALSE (unreach-call). As nested.c, but the inner loop runs 11 times when `i == 3`: `k` is
// then one more than `10*n` for every n >= 4. Natively: exits normally for n = 0..=3, reaches the
// error for n = 4.
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
    while (j < 10 + (i == 3)) {
      j++;
      k++;
    }
    i++;
  }
  if (k != 10 * n)
    reach_error();
  return 0;
}
