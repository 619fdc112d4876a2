// Expected: FALSE (unreach-call). As phases_parity.c, but the first phase ends at 5, which is odd: from
// there `x` stays odd, and the check after the loop fails for every n from 5 on. Natively: exits
// normally for n = 0..=4 and reaches the error for n = 5..=300.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 1000000)
    return 0;
  unsigned int x = 0;
  while (x < n) {
    if (x < 5)
      x++;
    else
      x += 2;
  }
  if (x >= 4 && x % 2 != 0)
    reach_error();
  return 0;
}
