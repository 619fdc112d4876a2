// Expected: TRUE (unreach-call), proved only by the Horn-clause engine. `x` and `y` count together to
// a nondeterministic `n` (any unsigned int), so `y == n` after the loop needs the relational invariant
// `y == x && x <= n` at the loop head. The exploration cannot complete (2^32 values of `n`, one path
// each), no bound covers the loop, and k-induction's candidates (guard relations, sums of three
// variables) do not state `y == x`, so of `check`'s portfolio only Spacer's invariant decides. The
// native build passes for every `n` tried.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int x = 0;
  unsigned int y = 0;
  while (x < n) {
    x++;
    y++;
  }
  if (y != n)
    reach_error();
  return 0;
}
