// --data-model ILP32, valid-memsafety: TRUE. Converting an integer to a pointer keeps its low 32 bits on
// ILP32, so 2^32 + the address of x is the address of x again and the write is valid (with 64-bit pointers
// it points nowhere: FALSE(valid-deref)).
#include <stdint.h>
int main(void) {
    int x = 0;
    unsigned long long far = 0x100000000ULL + (uintptr_t)&x;
    int *p = (int *)(uintptr_t)far;
    int *q = (int *)far;
    *p = 5;
    *q += 1;
    return x == 6 ? 0 : 1;
}
