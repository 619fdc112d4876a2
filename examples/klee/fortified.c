// glibc's fortified string functions (what -D_FORTIFY_SOURCE makes of strcpy, strcat, memcpy, ...
// where the compiler knows the destination's size) and nanosleep, as KLEE's klee-libc gives them
// (runtime/klee-libc/fortify-klibc.c, KLEE's test/Runtime/klee-libc/strcat_chk.c): `__strcat_chk` is
// `strcat`, `__strcpy_chk` is `strcpy`, the size argument is not compared (here it understates the
// destination, which glibc would abort on); a write past the object would be the memory model's error.
// `nanosleep` returns 0 at once. `strcat` reads the string `s` byte by byte, so KLEE forks on its
// length 0, 1, 2 or 3: 4 tests; on the path of length 3 the last assert fails (line 28).
#include <assert.h>
#include <string.h>
#include <time.h>
#include <klee/klee.h>

char *__strcpy_chk(char *dest, const char *src, size_t destlen);
char *__strcat_chk(char *dest, const char *src, size_t destlen);
void *__memcpy_chk(void *dest, const void *src, size_t n, size_t destlen);

int main(void) {
  char s[4];
  klee_make_symbolic(s, sizeof s, "s");
  s[3] = '\0';
  char d[8] = "";
  __strcpy_chk(d, "ab", 1);
  __strcat_chk(d, s, 1);
  struct timespec ts = {0, 10000000};
  assert(nanosleep(&ts, NULL) == 0);
  char e[8];
  __memcpy_chk(e, d, 6, 1);
  assert(strlen(e) < 5);
  return 0;
}
