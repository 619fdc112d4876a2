// Expected: FALSE (unreach-call), found by the exploration: the loop's guard compares the counter with
// the input `n`, so the path forks in every iteration (one side leaves the loop), and `reach_error` is
// called in the 65,536th iteration when `x` is 42. The path condition keeps only the tightest bound of
// `n` (n > i), and each iteration's fork is decided from the path's model moved to `n == i` without the
// solver, so the 65,536 iterations run at the interpreter's speed. BMC's `--unwind auto` stops at 4096.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int x = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    if (i == 65535 && x == 42)
      reach_error();
  }
  return 0;
}
