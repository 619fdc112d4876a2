// An even x goes up by 1 and an odd one down by 1, while y counts the laps: from any x >= 2 the loop
// runs forever (x alternates between 2k and 2k + 1) though no state repeats (y grows, and wraps
// around as an unsigned value may). From x <= 1 it ends. Expected: NO, from an input x >= 2, by the
// recurrent set {x >= 2}: an even x >= 2 goes to x + 1 >= 3, an odd x >= 3 to x - 1 >= 2.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned y = 0;
  while (x > 0) {
    if (x % 2 == 0)
      x = x + 1;
    else
      x = x - 1;
    y++;
  }
  return (int)(y & 1);
}
