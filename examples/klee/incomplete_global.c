// A global declared with a type the program never completes (KLEE's test/Feature/NonSizedGlobals.c):
// its address can be taken and compared, as on a native build; KLEE runs the one path to its exit
// and writes one test.
#include <stddef.h>

struct opaque;
extern struct opaque defined_elsewhere;
void *ptr = &defined_elsewhere;

int main(void) {
  if (ptr == NULL)
    return 1;
  return 0;
}
