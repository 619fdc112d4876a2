// Issue 12 (seed 000, Hensel & Giesl's running example, rewritten): build a list of
// nondeterministic length with `malloc` in a loop, then walk it with `offsetof`-style
// pointer arithmetic. Expected: YES, memory safe; the walk's rank is the list's length.
#include <stddef.h>
#include <stdlib.h>

extern unsigned int __VERIFIER_nondet_uint(void);

struct node {
  unsigned int payload;
  struct node *link;
};

int main(void) {
  unsigned int count = __VERIFIER_nondet_uint();
  struct node *front = NULL;
  struct node *fresh;
  for (unsigned int i = 0; i < count; i++) {
    fresh = malloc(sizeof(struct node));
    fresh->payload = __VERIFIER_nondet_uint();
    fresh->link = front;
    front = fresh;
  }
  struct node *walk = front;
  while (walk != NULL) {
    walk = *((struct node **)((char *)walk + offsetof(struct node, link)));
  }
  return 0;
}
