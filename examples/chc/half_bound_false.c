// Expected: FALSE (unreach-call). As half_bound.c, but `k` starts at n - 1 and is checked against 0:
// the first loop ends with `k == n/2 - 1`, the template `j >= n/2 || k + j == n/2` is suggested but
// fails on arrival, and the last check of the second loop fails. Natively: exits normally for
// n = -300..=1 and reaches the error for n = 2..=300.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 1000000)
    return 0;
  int k = n - 1;
  int i = 0;
  while (i < n) {
    k--;
    i = i + 2;
  }
  int j = 0;
  while (j < n / 2) {
    if (!(k > 0))
      reach_error();
    k--;
    j++;
  }
  return 0;
}
