// Calls of KLEE's intrinsics against their contract, one per value of `c`, each reported as KLEE
// reports it (KLEE 3.x SpecialFunctionHandler): a size that is not the object's ("Wrong size given to
// klee_make_symbolic", user.err), a read-only object ("cannot make readonly object symbolic",
// user.err), a pointer into the middle of an object (a memory error, ptr.err), a condition no input
// of the path satisfies ("invalid klee_assume call (provably false)", user.err), a symbolic argument
// of klee_set_forking ("klee_set_forking requires a constant arg", user.err). c == 5 exits normally:
// 6 tests.
#include <klee/klee.h>

static const int table[2] = {1, 2};

int main(void) {
  int c = klee_range(0, 6, "c");
  int a[2];
  int k;
  klee_make_symbolic(&k, sizeof k, "k");
  switch (c) {
  case 0:
    klee_make_symbolic(a, 1, "a");
    break;
  case 1:
    klee_make_symbolic((void *)table, sizeof table, "table");
    break;
  case 2:
    klee_make_symbolic(&a[1], sizeof a[1], "a1");
    break;
  case 3:
    klee_assume(k != k);
    break;
  case 4:
    klee_set_forking(k);
    break;
  }
  return 0;
}
