// Issue 12: the link field's offset computed as a pointer difference (as the `-ptrdiff`
// programs of Hensel_22 do) instead of `offsetof`, then the walk by that offset. The
// difference of two addresses in one element is the difference of their offsets (8 on
// LP64), whatever the element's address. Expected: YES, memory safe.
#include <stddef.h>
#include <stdlib.h>

extern unsigned int __VERIFIER_nondet_uint(void);

struct node {
  unsigned int payload;
  struct node *link;
};

int main(void) {
  unsigned int count = __VERIFIER_nondet_uint();
  if (count == 0) return 0;
  struct node *front = NULL;
  for (unsigned int i = 0; i < count; i++) {
    struct node *fresh = malloc(sizeof(struct node));
    fresh->payload = i;
    fresh->link = front;
    front = fresh;
  }
  ptrdiff_t to_link = (char *)&front->link - (char *)front;
  char *walk = (char *)front;
  while (walk != NULL) {
    walk = *(char **)(walk + to_link);
  }
  return 0;
}
