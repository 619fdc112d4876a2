// Expected: FALSE (unreach-call), found by loop acceleration: every iteration of the outer loop runs
// the inner loop ten times (`y` from 0 to 10) and adds 1 to `x`, and the error needs `x == 2^20 + 1`
// with `y == 10` on leaving the outer loop: 2^20 + 1 outer iterations (10,485,770 inner ones), one
// accelerated transition of the outer loop, whose probe iteration unwinds the inner loop.
// Natively: n = 1048577 reaches reach_error, n = 1048578 does not.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int x = 0, y = 0;
  while (x < n) {
    y = 0;
    while (y < 10)
      y++;
    x++;
  }
  if (x == 0x100001 && y == 10)
    reach_error();
  return 0;
}
