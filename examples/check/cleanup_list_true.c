// valid-memcleanup holds: a list of up to three nodes (grown with realloc'd payloads) is freed node by
// node before main returns, for every input.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { struct node *next; char *payload; };

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 3) return 0;
    struct node *head = 0;
    for (int i = 0; i < n; i++) {
        struct node *x = malloc(sizeof *x);
        if (x == 0) break;
        x->payload = malloc(4);
        if (x->payload != 0) {
            char *bigger = realloc(x->payload, 16);
            if (bigger != 0) x->payload = bigger;
        }
        x->next = head;
        head = x;
    }
    while (head != 0) {
        struct node *next = head->next;
        free(head->payload);
        free(head);
        head = next;
    }
    return 0;
}
