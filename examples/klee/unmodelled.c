// A library function without a model (strtok here) is named once with its call site, however many
// paths reach it (two here: x < 0 and x > 0); its paths write no test. The path that does not
// reach it (x == 0) exits: one test.
#include <klee/klee.h>
#include <string.h>

int main(void) {
  int x = klee_int("x");
  char s[] = "a,b";
  if (x == 0)
    return 0;
  if (x < 0)
    x = -x;
  char *t = strtok(s, ",");
  return t[0];
}
