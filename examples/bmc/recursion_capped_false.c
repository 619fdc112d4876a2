// The false twin of recursion_capped_true.c: the cap lets `g` reach 3, so the error is reachable for
// every odd x >= 3 (g(3) = 3, g(4) = 2, g(5) = 3, ...), three activations deep. An abstraction of the
// calls beyond the bound may not make it TRUE; BMC finds it at K = 3 (natively x = 3 aborts, x = 2
// passes).
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int g(int x) {
  if (x <= 0)
    return 0;
  int r = g(x - 1);
  return r > 2 ? 2 : r + 1;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (g(x) > 2)
    reach_error();
  return 0;
}
