// Expected: TRUE (unreach-call). `x` starts at 0 and each iteration adds 2 through a function, so `x`
// is even at the loop head whatever `n` is (also where `x` wraps around: 2^32 is even), and after the
// loop. Over integers the check `x % 2` is beyond linear arithmetic; on the bit-vectors the
// invariant is `(x & 1) == 0`. Natively: exits normally for n = 0..=300 and 2^20.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

static unsigned int step(unsigned int z) { return z + 2; }

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int x = 0;
  while (x < n) {
    x = step(x);
  }
  if (x % 2 != 0)
    reach_error();
  return 0;
}
