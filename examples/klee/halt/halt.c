// A program that never ends by itself: stop it with Ctrl-C (SIGINT), as a KLEE user would.
//
// Under KLEE the first Ctrl-C prints "ctrl-c detected, requesting interpreter to halt", and the states
// still alive are dumped (--dump-states-on-halt, on by default): each gets a test and a `.early` file
// saying "Execution halting.". Here the three branches on x give three states; the first ends at once
// (x == 1000), the second forks an out-of-bounds read (x < -1000, reported in a `.ptr.err` file with the
// stack), and the three states left spin forever. Stopped after the two finite paths ended, the run
// leaves 5 tests: two for the finished paths, 3 `.early` ones. (The expectation leaves out the error
// message, which is worded differently, and the 8-digit instruction position of each stack line,
// which counts lines of KLEE's assembly.ll.)
#include <klee/klee.h>

int f(int i, int k) {
  int a[4] = {0};
  return a[i + k];
}

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  unsigned n;
  if (x > 100)
    n = 1;
  else if (x < -100)
    n = 2;
  else
    n = 3;
  if (x == 1000)
    return 0;
  if (x < -1000)
    return f(x, 12);
  for (;;)
    n = n * 3 + 1;
}
