// Undefined behaviour: a read past the end of an array (C11 6.5.6p8).
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  int a[4] = {1, 2, 3, 4};
  unsigned char i = __VERIFIER_nondet_uchar();
  if (i > 4)
    return 0;
  return a[i];
}
