// Addresses as integers inside constant expressions, as clang-14 -O0 leaves them: the alignment of
// a global checked by `(size_t)&g % 128` (`urem (ptrtoint @g), 128`, KLEE's
// `2016-12-14-alloc-alignment.c`) and `&((char *)0)[(long)&a]`, a GEP on null whose index is an
// address (KLEE's `2008-05-23-gep-with-global-const.c`). KLEE gives globals aligned addresses and
// folds these at run time: both tests pass with `--exit-on-error` (no error). With a symbolic `x`
// the program has two paths, so 2 tests and no error; the native build returns 1 for x = 7 and 0
// for x = 8, failing no assertion (its UBSan notes the offset applied to null, which C leaves
// undefined and neither KLEE nor symex reports in a constant).
#include <assert.h>
#include <klee/klee.h>
#include <stddef.h>

int foo __attribute__((aligned(128)));
int a;

int main(void) {
  assert(((size_t)&foo) % 128 == 0);
  void *p1 = &((char *)0)[(long)&a];
  assert(p1 == (void *)&a);
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 7)
    return 1;
  return 0;
}
