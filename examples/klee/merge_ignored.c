// klee_open_merge/klee_close_merge without KLEE's -use-merge: KLEE ignores both with the warning
// "klee_open_merge ignored, use '-use-merge'" (and the same for klee_close_merge), printed once
// each; the paths are not merged, so the two sides of the branch are two tests.
#include <klee/klee.h>

int main(void) {
  int x = klee_int("x");
  klee_open_merge();
  int y = 2;
  if (x > 0)
    y = 1;
  klee_close_merge();
  return y - 1;
}
