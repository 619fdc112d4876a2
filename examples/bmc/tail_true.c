// Expected: TRUE (unreach-call): the check comes first, and what follows it — a loop that runs as long
// as its inputs say, over the function's own locals — can reach no bug, so BMC drops the runs that
// arrive there instead of unwinding that loop for ever (its bound would keep the answer BOUNDED-TRUE).
// Natively: no input reaches reach_error (`y` is at most 10).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

static void check(int y) {
  if (y > 10)
    reach_error();
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x > 10 ? 10 : x;
  check(y);
  while (__VERIFIER_nondet_int() && x > 0)
    x = x - 2;
  return 0;
}
