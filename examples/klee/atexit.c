// Functions registered with atexit run when main returns or exit is called, in the reverse order of
// their registration (C11 7.22.4.4), after the one thread's destructors (__cxa_thread_atexit_impl, as
// glibc's exit runs them); _exit runs none (C11 7.22.4.5). KLEE runs them so (its
// test/Runtime/klee-libc/atexit_order.c and cxa_thread_atexit_impl.c). Three paths: main returning
// (n == 0), exit(3) from a nested call (n == 1) and _exit(0) (otherwise). On the first two the handlers
// run in order (each assert holds) and the last one prints KLEE's warning; no error. KLEE: 3 tests, the
// warning twice.
#include <assert.h>
#include <stdlib.h>
#include <unistd.h>
#include <klee/klee.h>

extern int __cxa_thread_atexit_impl(void (*)(void *), void *, void *);

static int counter;
static int x;

void destructor(void *h) {
  assert(h == (void *)&x);
  assert(counter == 0);
  counter = 10;
}
void first(void) { assert(counter == 10); ++counter; }
void second(void) { assert(counter == 11); ++counter; }
void report(void) {
  if (counter == 12)
    klee_warning("the handlers ran in reverse order");
  else
    klee_report_error(__FILE__, __LINE__, "a handler did not run", "atexit.err");
}

void leave(int code) { exit(code); }

int main(void) {
  int n;
  klee_make_symbolic(&n, sizeof n, "n");
  atexit(report);
  atexit(second);
  atexit(first);
  __cxa_thread_atexit_impl(destructor, &x, 0);
  if (n == 0)
    return 0;
  if (n == 1)
    leave(3);
  _exit(0);
}
