// Expected: FALSE (unreach-call), found by loop acceleration: the loop runs two phases, `x` counting
// by 1 below 2^16 and by 2 from there on while `x < n`, and the error needs `x == 2^27 + 2` on leaving
// the loop: 2^16 + 2^26 iterations (one accelerated transition per phase). Natively: n = 2^27 + 1
// (or + 2) reaches reach_error after 67,141,633 iterations, n = 2^27 does not.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int x = 0;
  while (x < n) {
    if (x < 0x10000)
      x += 1;
    else
      x += 2;
  }
  if (x == 0x8000002)
    reach_error();
  return 0;
}
