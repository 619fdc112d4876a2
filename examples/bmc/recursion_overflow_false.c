// A recursion without side effects whose signed overflow happens only four activations deep
// (k * 1000000000 at k = 3, for n >= 4): under the no-overflow property no abstraction of the calls
// beyond the bound may hide it (natively, UBSan reports the overflow for n = 4, not for n = 3).
extern int __VERIFIER_nondet_int(void);

int g(int k, int n) {
  if (k >= n)
    return 0;
  int y = k * 1000000000;
  g(k + 1, n);
  return y & 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 5)
    return 0;
  g(0, n);
  return 0;
}
