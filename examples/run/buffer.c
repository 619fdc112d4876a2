// A write through a symbolic index that may leave its buffer, and a use after free on one path.
#include <stdlib.h>
int __VERIFIER_nondet_int(void);

int main(void) {
    int i = __VERIFIER_nondet_int();
    int buf[4] = {0, 0, 0, 0};
    if (i >= 0 && i <= 4)
        buf[i] = 7;  // i == 4: out-of-bounds
    int *p = malloc(sizeof(int));
    if (!p) return 0;
    *p = buf[0];
    free(p);
    if (i == 2)
        return *p;  // use-after-free
    return 0;
}
