// klee_define_fixed_object(addr, n): an object of n bytes at the address the program chose, which the
// program then reaches through that address (KLEE's test/Feature/DefineFixedObject.c, with a second
// int). Writes and reads through 0x80 and 0x84 are in the object: no error, one path. KLEE: 1 test.
#include <klee/klee.h>
#include <stdio.h>

#define ADDRESS ((int *)0x0080)

int main(void) {
  klee_define_fixed_object(ADDRESS, 8);
  int *p = ADDRESS;
  p[0] = 10;
  p[1] = 20;
  if (p[0] + p[1] != 30)
    klee_report_error(__FILE__, __LINE__, "the fixed object lost a write", "fixed.err");
  printf("*p: %d\n", *p);
  return 0;
}
