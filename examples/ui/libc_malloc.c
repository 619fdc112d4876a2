// Modelling choice in the expectation: symex's malloc returns NULL for 1 TiB (more than the largest
// object its addresses express, 4 GiB). glibc agrees on the development machine (clang-14 build: NULL,
// the kernel's overcommit heuristic refuses it) but may differ elsewhere. The rest is what the native
// build prints.
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    long *a = malloc(5 * sizeof *a);
    for (int i = 0; i < 5; i++) a[i] = 1L << (10 * i);
    printf("%ld %ld\n", a[0], a[4]);
    free(a);
    // calloc whose size overflows size_t fails on every glibc (malloc of 1 TiB would depend on the machine).
    printf("%d\n", calloc((size_t)1 << 40, (size_t)1 << 40) == NULL);
    return 0;
}
