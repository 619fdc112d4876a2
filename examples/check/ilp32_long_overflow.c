// --data-model ILP32, no-overflow: FALSE. `long` is 32 bits on ILP32: LONG_MAX + 1 overflows (it would not
// in a 64-bit long).
#include <limits.h>
int main(void) {
    volatile long one = 1;
    long x = LONG_MAX;
    long y = x + one;
    return y == 0;
}
