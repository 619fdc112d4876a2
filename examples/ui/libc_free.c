#include <stdlib.h>
int main(void) {
    free(NULL);
    void *p = malloc(3);
    free(p);
    return 0;
}
