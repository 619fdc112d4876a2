// Expected: FALSE (unreach-call), found only by the exploration: the loop runs 5000 times
// concretely and `reach_error` is called at its 4097th iteration when the input is 42. The
// exploration follows one path and forks once, at that iteration. BMC's `--unwind auto` stops at
// K = 4096 (1 << 12), where the 4097th iteration is the unwinding assertion (bounded-true), and the
// inductive step fails at every bound (it must: the program is false).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  for (int i = 0; i < 5000; i++) {
    if (i == 4096 && x == 42)
      reach_error();
  }
  return 0;
}
