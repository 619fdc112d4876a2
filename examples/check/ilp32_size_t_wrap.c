// --data-model ILP32, unreach-call: TRUE. size_t is 32 bits on ILP32: 0 - 1 is 4294967295 and 2^32 - 1
// plus 2 is 1 (the old emulation kept a 64-bit size_t and said FALSE).
#include <stddef.h>
extern void reach_error(void);
int main(void) {
    size_t n = 0;
    n = n - 1;
    if (n != 4294967295u) reach_error();
    size_t m = n + 2;
    if (m != 1) reach_error();
    return 0;
}
