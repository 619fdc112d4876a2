// Expected: TRUE (unreach-call). `x` counts up by 1 to 100, then by 2, up to a nondeterministic `n`
// (at most 10^6): from 100 on it stays even, so at the loop head `x < 100 || x % 2 == 0` (a
// disjunction of the loop's own comparison and a congruence), which the check after the loop states.
// Natively: exits normally for n = 0..=300, 999999 and 10^6.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 1000000)
    return 0;
  unsigned int x = 0;
  while (x < n) {
    if (x < 100)
      x++;
    else
      x += 2;
  }
  if (x >= 100 && x % 2 != 0)
    reach_error();
  return 0;
}
