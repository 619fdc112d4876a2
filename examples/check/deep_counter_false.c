// Expected: FALSE (unreach-call), found by the exploration: the counter must reach 2^16 before the
// error, and only an input `n` of at least 65,536 lets it. Each iteration forks on `c < n` (an
// unsigned bound of `n`); the error path is the 65,536th loop exit.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int c = 0;
  while (c < n)
    c++;
  if (c == 65536)
    reach_error();
  return 0;
}
