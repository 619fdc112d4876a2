// The program's own output, printed as KLEE prints it: each state writes its standard output as it
// executes the writes, so a line written before a fork appears once and a line written after it once per
// path that reaches it; writes to stderr go to stderr, not stdout. Three paths (x <= 10, 10 < x <= 100,
// x > 100): KLEE prints "before the branch" and "x > 10" once each, "x > 100" and "x <= 10" once each,
// and "." three times, in the order its searcher runs the states; its own messages go to stderr.
// `program_output.stdout` holds these lines sorted (the order between paths is the searcher's).
#include <stdio.h>
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  printf("before the branch\n");
  if (x > 10) {
    printf("x > %d\n", 10);
    if (x > 100)
      puts("x > 100");
  } else {
    fputs("x <= 10\n", stdout);
  }
  putchar('.');
  putchar('\n');
  fprintf(stderr, "to stderr\n");
  return 0;
}
