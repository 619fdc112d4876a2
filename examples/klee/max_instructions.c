// symex-flags: --max-instructions 5000 --search bfs
// KLEE's --max-instructions N bounds the instructions of the whole run: once N have executed KLEE halts
// ("halting execution, dumping remaining states") and, with --dump-states-on-halt (on by default),
// writes a test and a `.early` file ("Execution halting.") for every state still alive (KLEE's
// test/Feature/DumpStatesOnHalt.c). Here three branches on symbolic bits make 8 states, none of which
// ever ends; breadth-first search (--search=bfs) makes all 8 before any enters the loop, so all 8 are
// alive at the halt. KLEE: 8 tests, each with a `.early` file, no error.
#include <klee/klee.h>

int main(void) {
  unsigned char c;
  klee_make_symbolic(&c, sizeof c, "c");
  volatile unsigned n = 0;
  if (c & 1)
    n += 1;
  if (c & 2)
    n += 2;
  if (c & 4)
    n += 4;
  for (;;)
    n++;
  return 0;
}
