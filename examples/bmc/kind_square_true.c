// Expected: TRUE (unreach-call). `s` sums the first `i` odd numbers, so `s == i*i` (mod 2^32) holds at
// every loop head and `s == n*n` after the loop. That invariant is nonlinear: none of k-induction's
// candidates (guard relations, sums of locals) states it, and the inductive step fails at every k. So
// `symex bmc --unwind auto --k-induction` answers bounded-true as plain BMC does, and stops trying the
// step once it makes no progress. The native build passes for every n tried.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0;
  unsigned int s = 0;
  while (i < n) {
    s += 2 * i + 1;
    i++;
  }
  if (s != n * n)
    reach_error();
  return 0;
}
