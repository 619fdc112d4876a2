// Reading a heap block after free.
#include <stdlib.h>
int main(void) {
    int *p = malloc(sizeof *p);
    *p = 7;
    free(p);
    return *p;
}
