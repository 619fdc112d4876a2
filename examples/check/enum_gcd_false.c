// Expected: FALSE (unreach-call): the same gcd of two `signed char`s is -128 for exactly three pairs
// (x, y) = (-128, -128), (-128, 0), (0, -128): -(-128) stays -128 in a `signed char`. `check` runs
// the 65,536 input pairs concretely until one reaches the error (`decided by: enumeration`); natively
// that pair reaches reach_error, (1, 1) does not.
extern void reach_error(void);
extern signed char __VERIFIER_nondet_char(void);

static signed char gcd(signed char a, signed char b) {
  if (a < 0)
    a = -a;
  if (b < 0)
    b = -b;
  while (b != 0) {
    signed char t = b;
    b = a % b;
    a = t;
  }
  return a;
}

int main(void) {
  signed char x = __VERIFIER_nondet_char();
  signed char y = __VERIFIER_nondet_char();
  signed char g = gcd(x, y);
  if (g == -128)
    reach_error();
  return 0;
}
