// Expected: TRUE (unreach-call). Each iteration adds 1 to `y` and 1 or 2 to `x` (a nondeterministic
// choice), so `x <= 2*y` at the loop head; `n` is at most 10^6, so nothing wraps. Natively: exits
// normally for every choice sequence of n = 0..=10 (2^11 - 1 runs).
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern _Bool __VERIFIER_nondet_bool(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 1000000)
    return 0;
  unsigned int i = 0;
  unsigned int x = 0;
  unsigned int y = 0;
  while (i < n) {
    x++;
    if (__VERIFIER_nondet_bool())
      x++;
    y++;
    i++;
  }
  if (x > 2 * y)
    reach_error();
  return 0;
}
