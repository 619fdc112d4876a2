// Expected: FALSE (unreach-call), found only by BMC. Thirty input-dependent choices point `p` at `lo`
// or `hi` and add 2^i to the counter pointed to; `reach_error` needs `lo` to be one particular 30-bit
// pattern, i.e. one choice sequence of 2^30. The exploration forks at every choice and would have to
// run through up to 2^30 paths; BMC merges the choices (`p` an `ite` of two addresses, the stores
// merged byte by byte) and one query at K = 32 finds the sequence.
extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
  unsigned int lo = 0;
  unsigned int hi = 0;
  for (int i = 0; i < 30; i++) {
    unsigned int *p;
    if (__VERIFIER_nondet_bool())
      p = &lo;
    else
      p = &hi;
    *p += 1u << i;
  }
  if (lo == 0x2A5C93E1u)
    reach_error();
  return 0;
}
