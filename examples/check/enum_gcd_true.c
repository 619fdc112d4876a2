// Expected: TRUE (unreach-call): Euclid's algorithm on two `signed char`s, made non-negative first
// (-(-128) stays -128 in a `signed char`), never returns more than a positive `y`. Two inputs of 8
// bits: `check` runs all 65,536 of them concretely (`decided by: enumeration`), where the remainders'
// chain is hard for the solver. The test checks the property for every pair by brute force in Rust.
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
  if (y > 0 && g > y)
    reach_error();
  return 0;
}
