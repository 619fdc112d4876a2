// C library functions KLEE programs call, each checked against what C and glibc say they return
// (a failed check aborts): byte order on little-endian x86-64, heap copies of strings, aligned
// allocation, glibc's rand() sequence for the default seed and for srand(42), an empty environment
// (KLEE without --posix-runtime passes the host's, so getenv's result is the only input-dependent
// choice here and the check accepts both), output to stdout and stderr. The one symbolic branch
// (on `c`) makes two paths, both exiting: KLEE writes two tests and no error.
#include <arpa/inet.h>
#include <klee/klee.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  char c = (char)klee_int("c");
  if (htonl(0x01020304u) != 0x04030201u || ntohs(0x0102) != 0x0201)
    abort();
  char *d = strdup("klee");
  char *n = strndup("symex", 3);
  if (strcmp(d, "klee") != 0 || strlen(n) != 3 || n[2] != 'm')
    abort();
  void *p = memalign(64, 100), *q = aligned_alloc(16, 32), *r = 0;
  if (posix_memalign(&r, 32, 10) != 0 || !p || !q || !r)
    abort();
  if (rand() != 1804289383 || rand() != 846930886)
    abort();
  srand(42);
  if (rand() != 71876166)
    abort();
  char *home = getenv("HOME");
  if (home && !*home)
    abort();
  fprintf(stdout, "%s %d\n", d, 42);
  fputs("to stderr\n", stderr);
  fputc('!', stdout);
  fflush(stdout);
  sleep(1);
  free(d), free(n), free(p), free(q), free(r);
  if (c == 'x')
    return 0;
  return 1;
}
