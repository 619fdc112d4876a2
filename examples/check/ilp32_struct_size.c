// --data-model ILP32, valid-memsafety: TRUE. A list node of a pointer and an int is 8 bytes on ILP32, so
// the hard-coded malloc(8) is large enough (with 8-byte pointers it is 16 bytes: the old emulation said
// FALSE(valid-deref)).
#include <stdlib.h>
struct node {
    struct node *next;
    int data;
};
int main(void) {
    struct node *n = malloc(8);
    if (!n) return 0;
    n->next = n;
    n->data = 7;
    int d = n->next->data;
    free(n);
    return d == 7 ? 0 : 1;
}
