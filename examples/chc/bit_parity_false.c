// Expected: FALSE (unreach-call). As bit_parity.c, but each iteration sets `rest` to
// `(rest - 1) & (rest >> 1)`, which clears more than one bit at a time: the parity relation is
// suggested (a bitwise step of two values) but not kept, and the check fails. Natively: exits
// normally for word = 0 and 1 and reaches the error for word = 2 and 3.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int word = __VERIFIER_nondet_uint();
  unsigned int rest = word;
  unsigned char p = 0;
  while (rest != 0) {
    p = p == 0 ? 1 : 0;
    rest = (rest - 1) & (rest >> 1);
  }
  unsigned int fold = word;
  fold ^= fold >> 16;
  fold ^= fold >> 8;
  fold ^= fold >> 4;
  fold ^= fold >> 2;
  fold ^= fold >> 1;
  if (p != (fold & 1))
    reach_error();
  return 0;
}
