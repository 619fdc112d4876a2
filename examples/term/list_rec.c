// Issue 12: a list built by a recursive function (each call links a new element in front of
// the list its inner call returned) and walked by a recursive function. The builder's
// summary: it returns NULL for count 0, else a NULL-terminated list of `count` new elements;
// the walk's call head holds that list, and each inner call gets its rest (ℓ' = ℓ − 1).
// Expected: YES, memory safe.
#include <stdlib.h>

extern unsigned int __VERIFIER_nondet_uint(void);

struct node {
  unsigned int payload;
  struct node *link;
};

struct node *build(unsigned int count) {
  if (count == 0) return NULL;
  struct node *fresh = malloc(sizeof(struct node));
  fresh->payload = count;
  fresh->link = build(count - 1);
  return fresh;
}

unsigned int walk(struct node *p) {
  if (p->link == NULL) return p->payload;
  return walk(p->link);
}

int main(void) {
  unsigned int count = __VERIFIER_nondet_uint();
  if (count == 0 || count > 100000) return 0;
  struct node *front = build(count);
  return (int)walk(front);
}
