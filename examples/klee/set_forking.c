// klee_set_forking(0): a branch on a symbolic condition follows one feasible side instead of
// forking (KLEE's test/Feature/SetForking.c); forking on again, the next branch forks. KLEE writes
// two tests (the two sides of the second branch) and prints "A" once.
#include <klee/klee.h>
#include <stdio.h>

int main(void) {
  klee_set_forking(0);
  if (klee_range(0, 2, "range"))
    printf("A\n");
  else
    printf("A\n");
  klee_set_forking(1);
  if (klee_range(0, 2, "range"))
    printf("B\n");
  else
    printf("C\n");
  return 0;
}
