// Two paths reach the same out-of-bounds read (line 18) and a third fails an assertion (line 20). KLEE
// reports an error once per place ("NOTE: now ignoring this error at this location"): 2 error files, one
// .ptr.err and one .assert.err. With --emit-all-errors every error path gets its file: 3. With
// --exit-on-error KLEE halts at the first error it meets: 1 error file (the states still alive are
// dumped as .early tests).
#include <assert.h>
#include <klee/klee.h>

int main(void) {
  int x, y;
  int a[4] = {0};
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  if (x > 100) {
    int k = 0;
    if (y > 0)
      k = 1;
    return a[4 + k];
  }
  assert(x != 7);
  return 0;
}
