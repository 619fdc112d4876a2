// unreach-call: TRUE. A pointer converted to an integer, moved by a multiple of the element size and
// converted back points to the element the arithmetic names, wherever the array is (C11 7.20.1.4: a
// uintptr_t converted back compares equal to the pointer; the sum's offset does not depend on the address),
// and the difference of two addresses in one array is their distance. A native build agrees (clang-14
// -fsanitize=address,undefined: exit 0). symex proves it: the integer is the object's address plus an amount
// that is the same for every placement of the array (checked with the solver), so the conversion back
// gives the model's pointer; a round trip through bits that depend on the placement (masking, shifting)
// stays address-dependent and its decisions UNKNOWN.
#include <stdint.h>
extern void reach_error(void);
int main(void) {
    int a[4] = {1, 2, 3, 4};
    uintptr_t u = (uintptr_t)&a[1];
    int *p = (int *)(u + 2 * sizeof(int));
    if (*p != 4) reach_error();
    uintptr_t back = u - sizeof(int);
    if ((int *)back != &a[0]) reach_error();
    *(int *)back = 7;
    if (a[0] != 7) reach_error();
    return 0;
}
