// printf's %n stores the count of bytes written so far through its argument, as wide as the length
// modifier says (C11 7.21.6.1p8): 2, then 4 through a short and a signed char, and printf returns 5.
// Then a symbolic x in [0, 1000) printed with %d: the count after it is its number of digits, so the
// assertion n != 3 fails for 100 <= x <= 999 and holds otherwise: 2 paths, 2 tests, one assertion
// error at line 22.
#include <klee/klee.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = -1;
  short h = -1;
  signed char c = -1;
  int r = printf("ab%ncd%hn%hhn\n", &n, &h, &c);
  if (n != 2 || h != 4 || c != 4 || r != 5)
    abort();
  int x = klee_range(0, 1000, "x");
  n = -1;
  printf("%d%n\n", x, &n);
  if (n < 1)
    abort();
  klee_assert(n != 3);
  return 0;
}
