#include <stdio.h>
#include <string.h>
int main(void) {
    char d[16] = "sym";
    strcat(d, "bolic");
    puts(d);
    return 0;
}
