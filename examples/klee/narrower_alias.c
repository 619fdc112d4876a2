// A function called through an alias of a narrower type, as KLEE's Feature/FunctionAlias.c does:
// `short short_is_negative(short)` is `int is_negative(int)`. The caller passes the short with
// `signext` (x86-64 SysV: the caller extends it to 32 bits), so `is_negative` sees the value itself:
// x = -1 is negative. KLEE runs the call as such, forking on `a < 0`: 2 tests, no error; the native
// build returns 1 for x = -1 and 0 for x = 1.
#include <klee/klee.h>

int __attribute__((noinline)) is_negative(int a) { return a < 0; }
extern short short_is_negative(short) __attribute__((alias("is_negative")));

int main(void) {
  short x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (short_is_negative(x))
    return 1;
  return 0;
}
