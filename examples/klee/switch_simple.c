// symex-flags: --switch-type simple
// KLEE's --switch-type=simple lowers a `switch` to a chain of comparisons, one per case value, so every
// feasible case value is a path of its own even where cases share their code (KLEE's
// test/Feature/LowerSwitch.c; the default, internal, forks once per target). Here c is 0..9: cases 1, 2,
// 3 share one target and 7 has its own; the other six values go to the default. KLEE: 5 tests (1, 2, 3,
// 7, default), where --switch-type=internal gives 3.
#include <klee/klee.h>

int main(void) {
  int c = klee_range(0, 10, "c");
  switch (c) {
  case 1:
  case 2:
  case 3:
    return 1;
  case 7:
    return 7;
  default:
    return 0;
  }
}
