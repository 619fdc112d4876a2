// A correctness witness with a relational invariant: `x` counts down from a nondeterministic `n` while
// `y` counts up, so `x + y == n` holds at every loop head (in 16-bit arithmetic) and `y == n` after the
// loop. k-induction proves it; `check --witness W.yml` writes the sum at the `while`. Every `n` (all
// 65,536) runs natively without reaching the error.
extern unsigned short __VERIFIER_nondet_ushort(void);
extern void reach_error(void);

int main(void) {
  unsigned short n = __VERIFIER_nondet_ushort();
  unsigned short x = n;
  unsigned short y = 0;
  while (x > 0) {
    x--;
    y++;
  }
  if (y != n)
    reach_error();
  return 0;
}
