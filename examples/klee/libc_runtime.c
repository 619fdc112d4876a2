// qsort, bsearch, strtol, strtoul and errno as C11 7.22 defines them (KLEE gets them from klee-libc
// or uclibc). The concrete checks below hold for any conforming C library (the native build under
// AddressSanitizer passes them too), so they take one path and report nothing. Then bsearch looks for
// a symbolic key in {1, 3, 5, 7} with a three-way comparison: a binary search over four elements
// has 2*4+1 = 9 outcomes (each element found, or one of the five gaps), so 9 paths, 9 tests; the one
// that finds 7 fails klee_assert at line 47 ("ASSERTION FAIL: !found || *found != 7").
#include <assert.h>
#include <errno.h>
#include <klee/klee.h>
#include <limits.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(void) {
  int v[5] = {4, -2, 9, 0, 4};
  qsort(v, 5, sizeof v[0], cmp);
  if (v[0] != -2 || v[1] != 0 || v[2] != 4 || v[3] != 4 || v[4] != 9)
    abort();
  int k = 9;
  if (bsearch(&k, v, 5, sizeof v[0], cmp) != &v[4])
    abort();
  k = 5;
  if (bsearch(&k, v, 5, sizeof v[0], cmp) != NULL)
    abort();

  char *end;
  if (strtol("  -42xyz", &end, 10) != -42 || *end != 'x')
    abort();
  if (strtol("0x1F", &end, 0) != 31 || strtol("017", NULL, 0) != 15 || strtol("z", NULL, 36) != 35)
    abort();
  if (strtol("abc", &end, 10) != 0 || *end != 'a')
    abort();
  errno = 0;
  if (strtol("99999999999999999999", NULL, 10) != LONG_MAX || errno != ERANGE)
    abort();
  if (strtoul("-1", NULL, 10) != ULONG_MAX || strtoul("ff", NULL, 16) != 255)
    abort();

  int sorted[4] = {1, 3, 5, 7};
  int key;
  klee_make_symbolic(&key, sizeof key, "key");
  int *found = bsearch(&key, sorted, 4, sizeof sorted[0], cmp);
  klee_assert(!found || *found != 7);
  return 0;
}
