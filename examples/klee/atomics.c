// Atomic operations on one thread are the plain memory operations they order (KLEE lowers them so;
// test/Feature/Atomic.c). Each result is what C11 7.17.7 and GCC's __atomic builtins define; a
// failed check aborts. The one symbolic branch (x < 5, x from klee_range(0, 10)) makes two paths,
// both exiting: KLEE writes two tests and no error.
#include <klee/klee.h>
#include <stdatomic.h>
#include <stdlib.h>

int main(void) {
  atomic_int a = 7;
  if (atomic_fetch_add(&a, 5) != 7 || a != 12)
    abort();
  unsigned u = 0xF0;
  if (__atomic_fetch_nand(&u, 0x3C, __ATOMIC_SEQ_CST) != 0xF0 || u != ~0x30u)
    abort();
  int m = -3;
  if (__atomic_fetch_max(&m, 2, __ATOMIC_SEQ_CST) != -3 || m != 2)
    abort();
  if (__atomic_fetch_min(&m, -9, __ATOMIC_SEQ_CST) != 2 || m != -9)
    abort();
  int expected = 1;
  if (atomic_compare_exchange_strong(&a, &expected, 3) || expected != 12 || a != 12)
    abort();
  if (!atomic_compare_exchange_strong(&a, &expected, 3) || a != 3)
    abort();
  atomic_thread_fence(memory_order_seq_cst);
  int x = klee_range(0, 10, "x");
  atomic_int s = x;
  if (atomic_exchange(&s, 0) != x || s != 0)
    abort();
  if (x < 5)
    return 0;
  return 1;
}
