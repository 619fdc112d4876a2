// valid-memsafety: FALSE(valid-memtrack), with 64-bit and with 32-bit pointers. The same packed list as
// leak_packed_list_true.c, but the second node's unaligned `next` is cleared before exit: the nodes after
// it are lost. LeakSanitizer (clang-14 -fsanitize=address, LSAN_OPTIONS=use_unaligned=1, with and without
// -m32) reports them for every n from 3.
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
    if (n >= 3) list.head->next->next = 0;
    return 0;
}
