#include <stdio.h>
int main(void) {
    int r = puts("line one");
    return r < 0;
}
