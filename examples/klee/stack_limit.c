// symex-flags: --max-stack-frames 5
// KLEE's --max-stack-frames N (default 8192; KLEE's test/Feature/StackOverflow.c recurses 10000 deep): a
// call made while more than N frames are on the stack (main's included) ends its state early. KLEE
// writes a test for it with a `.early` file holding "Maximum stack size reached." and prints "KLEE:
// WARNING: Maximum stack size reached.". Here N = 5: main and four activations of `depth` may call
// again, so the fifth activation (nr = n - 4) is the deepest; each level forks on nr == 0. n = 0..4
// return (5 tests); every n >= 5 reaches the call at line 14 from the fifth activation and ends there
// (1 test, 1 warning). KLEE: 6 tests, no error.
#include <klee/klee.h>

unsigned depth(unsigned nr) {
  if (nr == 0)
    return 0;
  return 1 + depth(nr - 1);
}

int main(void) {
  unsigned n;
  klee_make_symbolic(&n, sizeof n, "n");
  return depth(n);
}
