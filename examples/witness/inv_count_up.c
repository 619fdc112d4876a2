// A correctness witness: `i` counts up to a nondeterministic `n`. After the loop `i == n` needs the loop
// invariant `i <= n` (from the guard), which k-induction proves and `check --witness W.yml` writes at
// the `while`. Every `n` (all 256) runs natively without reaching the error.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  unsigned char i = 0;
  while (i < n) {
    i++;
  }
  if (i != n)
    reach_error();
  return 0;
}
