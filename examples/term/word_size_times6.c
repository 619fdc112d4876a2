// Multiplying a 16-bit value by 6 gains one trailing zero bit per lap, so it is 0 within 16 laps; a
// second counter runs beside it. Expected: YES, by the word size.
extern unsigned short __VERIFIER_nondet_ushort(void);
int main(void) {
  unsigned short x = __VERIFIER_nondet_ushort();
  int laps = 0;
  while (x != 0) {
    x = x * 6;
    if (laps < 100)
      laps++;
  }
  return laps;
}
