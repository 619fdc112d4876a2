// A loop the exploration proves safe (256 values of n, each path complete): the proof itself needs no
// invariant, and the correctness witness gets those of the loop head's abstract state in `symex term`'s SEG
// that the Horn-clause encoding shows inductive (x <= n, and a relation with y).
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "inv_term_exploration.c", 6, "reach_error"); }
int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  unsigned int x = 0, y = 0;
  while (x < n) {
    x++;
    y += 2;
  }
  if (y != 2 * x)
    reach_error();
  return 0;
}
