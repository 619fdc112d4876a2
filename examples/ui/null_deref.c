// Reading a field through a null pointer.
#include <stddef.h>
struct node { int value; struct node *next; };
int sum(struct node *n) {
    int s = 0;
    for (int i = 0; i < 3; i++, n = n->next)
        s += n->value;
    return s;
}
int main(void) {
    struct node b = {2, NULL}, a = {1, &b};
    return sum(&a);
}
