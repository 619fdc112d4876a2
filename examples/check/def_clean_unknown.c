// No undefined behaviour of the kinds symex checks on any input (shift amounts below the width, a
// nonzero divisor, no overflow, indices in bounds): def-behavior is not answered TRUE all the same,
// since other undefined behaviour (uninitialised reads, unsequenced side effects, ...) is not checked.
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char k = __VERIFIER_nondet_uchar();
  int a[4] = {1, 2, 3, 4};
  unsigned int s = 1u << (k % 32);
  int q = 100 / (k % 7 + 1);
  return a[k % 4] + q + (int)(s & 1u);
}
