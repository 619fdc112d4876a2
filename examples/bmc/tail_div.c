// Expected: no TRUE from BMC: the same shape as tail_true.c, but the loop after the check divides by an
// input, which may be zero (undefined behaviour outside the property, so no TRUE while it is reachable):
// the loop is no bug-free tail, and BMC answers UNKNOWN, naming the division.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

static void check(int y) {
  if (y > 10)
    reach_error();
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x > 10 ? 10 : x;
  check(y);
  while (__VERIFIER_nondet_int() && x > 0)
    x = x / __VERIFIER_nondet_int();
  return 0;
}
