// Freeing a pointer into the middle of a block.
#include <stdlib.h>
int main(void) {
    char *p = malloc(8);
    free(p + 1);
    return 0;
}
