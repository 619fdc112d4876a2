// Expected: TRUE (unreach-call). The first loop counts `k` down from n + 1 by one per two steps of `i`,
// so it ends with `k == n/2 + 1` (n >= 0); the second counts `k` down n/2 times, and `k > 1` holds at
// each check: at its head `j >= n/2 || k + j == 1 + n/2` (a template over the bound n/2 and the
// checked constant 1), which needs the first loop's `k == n + 1 - i/2`, `i` even and
// `i == 0 || i < n + 2`. Natively: exits normally for n = -300..=300 and 10^6.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 1000000)
    return 0;
  int k = n + 1;
  int i = 0;
  while (i < n) {
    k--;
    i = i + 2;
  }
  int j = 0;
  while (j < n / 2) {
    if (!(k > 1))
      reach_error();
    k--;
    j++;
  }
  return 0;
}
