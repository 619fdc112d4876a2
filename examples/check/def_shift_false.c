// Undefined behaviour: a shift by at least the width of its (promoted) left operand (C11 6.5.7p3).
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char k = __VERIFIER_nondet_uchar();
  unsigned int x = 1u;
  if (k > 40)
    return 0;
  unsigned int y = x << k;
  return y == 0;
}
