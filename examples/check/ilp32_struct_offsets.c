// --data-model ILP32, unreach-call: TRUE. Field offsets of a struct with pointers and a long long on ILP32:
// next at 0, prev at 4, key (a 4-aligned long long on i386) at 8, data at 16, size 20.
#include <stddef.h>
extern void reach_error(void);
struct item {
    struct item *next;
    struct item *prev;
    long long key;
    int data;
};
int main(void) {
    struct item it;
    char *raw = (char *)&it;
    it.data = 3;
    if (offsetof(struct item, key) != 8 || offsetof(struct item, data) != 16) reach_error();
    if (sizeof(struct item) != 20) reach_error();
    if (*(int *)(raw + 16) != 3) reach_error();
    return 0;
}
