// Shifting left until zero ends within 8 laps for an 8-bit value, whatever it starts as, though no
// polynomial ranks it (x ↦ 2x mod 256 rises as often as it falls). Expected: YES, by the word size.
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char x = __VERIFIER_nondet_uchar();
  while (x != 0)
    x = x << 1;
  return 0;
}
