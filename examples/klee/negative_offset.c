// Writes at symbolic indices that may lie outside a two-int heap block on either side (KLEE's
// test/Feature/OverlappedError.c, with the blocks zeroed and the writes aligned). The pointer is
// still the block's, so KLEE forks once per write: the indices outside it are one out-of-bounds
// error at that write, blamed on the block (`.ptr.err`), the others go on. 4 tests: x[2] is past
// the block (line 13); x[-1] is before it (line 17).
#include <klee/klee.h>
#include <stdlib.h>

int main(void) {
  if (klee_range(0, 2, "side")) {
    int *x = calloc(2, sizeof(int));
    // Indices 0..2.
    x[klee_range(0, 3, "range")] = 1;
    free(x);
  } else {
    int *x = calloc(2, sizeof(int));
    x[klee_range(-1, 2, "range")] = 1; // indices -1..1
    free(x);
  }
  return 0;
}
