// Expected: TRUE (unreach-call), proved by the Horn-clause engine: `y == x && x <= n` at the loop head
// (Spacer's invariant, re-checked by symex) gives `y == n` after the loop. `n` is an unsigned short, so
// that the witness's invariants can be checked natively on every input (65,536 values); the
// exploration cannot complete (one path per value, up to 65,535 iterations each) and no bound of BMC
// covers the loop.
extern void reach_error(void);
extern unsigned short __VERIFIER_nondet_ushort(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_ushort();
  unsigned int x = 0;
  unsigned int y = 0;
  while (x < n) {
    x++;
    y++;
  }
  if (y != n)
    reach_error();
  return 0;
}
