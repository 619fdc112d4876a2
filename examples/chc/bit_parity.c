// Expected: TRUE (unreach-call). The loop clears the lowest set bit of `rest` while `p` toggles
// between 0 and 1, so at its head `par(rest) ^ p == par(word)` (`par`: the XOR of the bits), an affine
// relation over GF(2) that no linear invariant states; at the exit `rest == 0`, so `p` is the parity
// of `word`, which the check compares with the parity folded by shifts. Natively: exits normally for
// word = 0..=4096, 0xffffffff, 0x80000000 and 0x12345678.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int word = __VERIFIER_nondet_uint();
  unsigned int rest = word;
  unsigned char p = 0;
  while (rest != 0) {
    p = p == 0 ? 1 : 0;
    rest = rest & (rest - 1);
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
