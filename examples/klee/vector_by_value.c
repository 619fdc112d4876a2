// A vector passed by value to a function and to `klee_print_expr` (KLEE's
// `VectorInstructions/insert_element.c` prints `v4ui` values this way). KLEE passes the vector's
// lanes as one value: `sum` sees the lane `set_lane` wrote with the symbolic `x`, so
// `sum(f) == 10` (0 + 1 + 2 + x, true for x = 7 only) forks two paths, and the assertion on the
// other lanes holds on both: 2 tests, no error. The native ASan/UBSan build returns 1 for x = 7
// and 0 for x = 8, failing no assertion.
#include <assert.h>
#include <klee/klee.h>
#include <stdint.h>

typedef uint32_t v4ui __attribute__((vector_size(16)));

static __attribute__((noinline)) uint32_t sum(v4ui v) { return v[0] + v[1] + v[2] + v[3]; }

static __attribute__((noinline)) v4ui set_lane(v4ui v, uint32_t x) {
  v[3] = x;
  return v;
}

int main(void) {
  v4ui f = {0, 1, 2, 3};
  uint32_t x;
  klee_make_symbolic(&x, sizeof x, "x");
  f = set_lane(f, x);
  assert(f[0] == 0 && f[1] == 1 && f[2] == 2);
  if (sum(f) == 10)
    return 1;
  return 0;
}
