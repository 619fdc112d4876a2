// An uninitialised local is an input: the test file gives its bytes.
#include <stdio.h>
int main(void) {
    int x;
    if (x == 1234)
        puts("x is 1234");
    else
        puts("x is something else");
    return 0;
}
