// Expected: FALSE (unreach-call), found by loop acceleration: `x` grows by 4 and `y` by 1 per iteration
// while `x < n`, and the error needs `y == 65536` with `x` past `n` (n = 262141 ... 262143): 2^16
// iterations, far beyond what `--unwind auto` unwinds. One accelerated transition takes them at once.
// Natively: n = 262141 reaches reach_error, n = 262144 does not.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int x = 0;
  unsigned int y = 0;
  while (x < n) {
    x += 4;
    y += 1;
  }
  if (y == 65536 && x != n)
    reach_error();
  return 0;
}
