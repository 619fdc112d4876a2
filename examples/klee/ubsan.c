// symex-flags: --ubsan-runtime --cflags=-fsanitize=unsigned-integer-overflow,null
// Checks clang compiles in (-fsanitize=unsigned-integer-overflow,null) reported as KLEE's UBSan
// runtime reports them (--ubsan-runtime; KLEE's test/UBSan/ubsan_unsigned_integer_overflow.c and
// ubsan_null.c): each failing check ends its path with an error named as UBSan names the check, in a
// file with KLEE's extension. x + y, x - y, x * y and -x each fork an overflowing path:
// `unsigned-integer-overflow` in `.overflow.err` at lines 17, 18, 19, 20. Then *p with p null when
// z == 5: `null-pointer-use` in `.ptr.err` at line 22. Six paths, six tests.
#include <klee/klee.h>

int main(void) {
  unsigned x, y;
  int z, a = 1;
  volatile unsigned r;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  klee_make_symbolic(&z, sizeof z, "z");
  r = x + y;
  r = x - y;
  r = x * y;
  r = -x;
  int *p = z == 5 ? 0 : &a;
  return *p;
}
