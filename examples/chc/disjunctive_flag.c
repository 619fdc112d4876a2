// Expected: TRUE (unreach-call). A flag chosen once decides which of `a` and `b` the loop counts, so
// after the loop one of them is 0. The invariant at the loop head is disjunctive,
// `(f && b == 0) || (!f && a == 0)`: no conjunction of linear facts over `f`, `a`, `b` is inductive and
// implies it. Natively: exits normally for both flags and n = 0..=300 and 2^20.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
  _Bool f = __VERIFIER_nondet_bool();
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0;
  unsigned int a = 0;
  unsigned int b = 0;
  while (i < n) {
    if (f)
      a++;
    else
      b++;
    i++;
  }
  if (a != 0 && b != 0)
    reach_error();
  return 0;
}
