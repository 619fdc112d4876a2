// Only stdin is modelled: reading another stream is an unsupported construct, named with its position.
#include <stdio.h>

int main(void) {
    FILE *f = stdout;
    return fgetc(f);
}
