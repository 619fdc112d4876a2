// Undefined behaviour: a signed overflow (C11 6.5p5).
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 2147483600)
    return 0;
  return x + 100 > 0;
}
