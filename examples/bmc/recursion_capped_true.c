// A recursion over any `int` whose result is capped at 2 (SV-COMP's `id2_b2_o3` in small): `g` has no
// side effects, so beyond the recursion bound a call may be taken to return any value, and whatever
// it returns the cap keeps `g(x) <= 2`. TRUE at every bound K >= 1 with that abstraction; the
// native build passes for x = -50..2000 and 100000 (deeper recursion overflows a native stack).
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int g(int x) {
  if (x <= 0)
    return 0;
  int r = g(x - 1);
  return r >= 2 ? 2 : r + 1;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (g(x) > 2)
    reach_error();
  return 0;
}
