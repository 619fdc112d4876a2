// A pointer made from a symbolic integer, converted back to an integer (as the checks of clang's
// -fsanitize=alignment and pointer-overflow do). KLEE's ptrtoint is the pointer's bits, so the
// branches on the integer fork as on the input itself: 3 tests, no error (a = UINTPTR_MAX returns 2,
// a multiple of 8 returns 1, any other value 0; the native build with a = 18446744073709551615, 8
// and 3 returns 2, 1 and 0).
#include <klee/klee.h>
#include <stdint.h>

int main(void) {
  uintptr_t a;
  klee_make_symbolic(&a, sizeof a, "a");
  char *p = (char *)a;
  if ((uintptr_t)p + 1 == 0)
    return 2;
  if (((uintptr_t)p & 7) == 0)
    return 1;
  return 0;
}
