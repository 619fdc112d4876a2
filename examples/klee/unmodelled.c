// A library function without a model (qsort here) is named once with its call site, however many
// paths reach it (two here: x < 0 and x > 0); its paths write no test. The path that does not
// reach it (x == 0) exits: one test.
#include <klee/klee.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(void) {
  int x = klee_int("x");
  int v[2] = {2, 1};
  if (x == 0)
    return 0;
  if (x < 0)
    x = -x;
  qsort(v, 2, sizeof v[0], cmp);
  return v[0];
}
