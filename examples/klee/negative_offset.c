// Writes at symbolic offsets that may lie outside an 8-byte heap block on either side (KLEE's
// test/Feature/OverlappedError.c, with the blocks zeroed). The pointer is still the block's, so KLEE
// forks once per write: the offsets outside it are one out-of-bounds error at that write, blamed on
// the block (`.ptr.err`), the others go on. 4 tests: x[5..8] ends past the block (line 13); x[-1]
// starts before it (line 18).
#include <klee/klee.h>
#include <stdlib.h>

int main(void) {
  if (klee_range(0, 2, "side")) {
    char *x = calloc(8, 1);
    // Offsets 0..5: 5 writes bytes 5..8.
    *((int *)&x[klee_range(0, 6, "range")]) = 1;
    free(x);
  } else {
    char *x = calloc(8, 1);
    // Offsets -1..4: -1 writes bytes -1..2.
    *((int *)&x[klee_range(-1, 5, "range")]) = 1;
    free(x);
  }
  return 0;
}
