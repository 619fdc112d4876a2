// --data-model ILP32, unreach-call: FALSE. On ILP32 an `unsigned int` in a union with a pointer holds the
// whole address, so it equals the pointer converted to an integer.
#include <stdint.h>
extern void reach_error(void);
union U {
    int *p;
    unsigned int u;
};
int main(void) {
    int x = 1;
    union U v;
    v.p = &x;
    if (v.u == (unsigned int)(uintptr_t)&x) reach_error();
    return 0;
}
