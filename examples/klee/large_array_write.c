// A 64 KiB buffer written and read at symbolic indices. KLEE updates and reads it as one symbolic
// array (warning once for the write and once for the read that it sends an array of 65536 bytes to
// the solver): only the program's own branches fork, so KLEE writes 3 tests. The byte at `i` is 8
// exactly when `j == i` (7 stored at `i`, then 1 added at `j`): the assertion of line 24 holds. Else
// the last byte is still 0 unless `i` is its index: the assertion of line 27 fails for `i == N - 1`,
// `j != i`, and holds for every other `i != j`. (The native build, with the two indices given, takes
// the same three exits: i = j = 5 returns 1; i = 65535, j = 0 fails the assertion; i = 1, j = 2
// returns 0.)
#include <assert.h>
#include <klee/klee.h>

#define N 65536
static unsigned char buf[N];

int main(void) {
  unsigned i, j;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i < N);
  klee_assume(j < N);
  buf[i] = 7;
  buf[j] += 1;
  if (buf[i] == 8) {
    assert(i == j);
    return 1;
  }
  assert(buf[N - 1] == 0);
  return 0;
}
