#include <stdio.h>
#include <string.h>
int main(void) {
    char d[8];
    strcpy(d, "copy");
    puts(d);
    return 0;
}
