// Undefined behaviour: a division by zero (C11 6.5.5p5).
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int d = __VERIFIER_nondet_int();
  if (d < -3 || d > 3)
    return 0;
  return 12 / d;
}
