// --data-model ILP32, unreach-call: TRUE. Pointer arithmetic and uintptr_t wrap at 32 bits on ILP32:
// adding 2^32 - 4 to an address is subtracting 4, and the difference of two addresses fits in 32 bits.
#include <stdint.h>
extern void reach_error(void);
int main(void) {
    int a[4] = {1, 2, 3, 4};
    uintptr_t u = (uintptr_t)&a[2];
    uintptr_t back = u + 0xFFFFFFFCu;
    if ((int *)back != &a[1]) reach_error();
    if (*(int *)back != 2) reach_error();
    if (sizeof(uintptr_t) != 4) reach_error();
    return 0;
}
