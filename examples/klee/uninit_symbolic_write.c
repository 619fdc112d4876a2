// KLEE's test/Feature/OverlappedError.c on blocks from malloc, never written before the writes at a
// symbolic index (aligned int writes, so that the native build's UBSan has nothing to say about
// alignment). KLEE writes once per index range: the indices outside the block are one out-of-bounds
// error at that write, blamed on the block (`.ptr.err`), the others go on as one path. 4 tests, two
// errors: x[2] past the block (line 12); x[-1] before it (line 16).
#include <klee/klee.h>
#include <stdlib.h>

int main(void) {
  if (klee_range(0, 2, "side")) {
    int *x = malloc(2 * sizeof(int));
    x[klee_range(0, 3, "range")] = 1; // indices 0..2
    free(x);
  } else {
    int *x = malloc(2 * sizeof(int));
    x[klee_range(-1, 2, "range")] = 1; // indices -1..1
    free(x);
  }
  return 0;
}
