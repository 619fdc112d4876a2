// Expected: TRUE (unreach-call), proved by k-induction. `i` counts to a nondeterministic
// `n` (any unsigned int): `x == 2*i` holds at every iteration (1-inductive) and `i <= n` after the
// loop follows from the invariant `i <= n` of the guard `i < n`. The exploration cannot complete
// (2^32 values of `n`, one path each) and no bound covers the loop, so of `check`'s portfolio BMC's
// inductive step decides, and so does the Horn-clause engine (its own candidates state both
// invariants). The native build passes for every `n` tried.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0;
  unsigned int x = 0;
  while (i < n) {
    if (x != 2 * i)
      reach_error();
    x += 2;
    i++;
  }
  if (i > n)
    reach_error();
  return 0;
}
