// Expected: TRUE (unreach-call). `x` counts down from a nondeterministic `n` while `y` counts up, so
// `x + y == n` at the loop head (a relation of three variables, none bounded by a constant), and
// `y == n` after the loop. Natively: exits normally for n = 0..=300 and 2^20.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int x = n;
  unsigned int y = 0;
  while (x > 0) {
    x--;
    y++;
  }
  if (y != n)
    reach_error();
  return 0;
}
