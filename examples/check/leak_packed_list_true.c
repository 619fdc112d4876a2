// valid-memsafety: TRUE, with 64-bit and with 32-bit pointers. A list whose `next` pointers sit at
// unaligned offsets (`__attribute__((packed))`: offset 1 of each node, and of the global holding the
// head) is still reachable from the global at exit, so no block is lost. LeakSanitizer agrees when told
// to follow unaligned pointers (clang-14 -fsanitize=address, LSAN_OPTIONS=use_unaligned=1, with and
// without -m32; by default it scans aligned words only and reports these blocks, as symex used to:
// FALSE(valid-memtrack)).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct __attribute__((packed)) node {
    char tag;
    struct node *next;
    int value;
};
struct __attribute__((packed)) holder {
    char c;
    struct node *head;
} list;
int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 4) return 0;
    for (int i = 0; i < n; i++) {
        struct node *p = malloc(sizeof *p);
        if (!p) abort();
        p->tag = (char)i;
        p->value = i;
        p->next = list.head;
        list.head = p;
    }
    return 0;
}
