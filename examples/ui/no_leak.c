// symex-flags: --check-leaks
// Every block is freed or still reachable from a global: no leak.
#include <stdlib.h>
struct list { struct list *next; int v; };
struct list *head;
int main(void) {
    for (int i = 0; i < 3; i++) {
        struct list *n = malloc(sizeof *n);
        n->next = head;
        n->v = i;
        head = n;
    }
    char *tmp = malloc(10);
    free(tmp);
    return head->v;
}
