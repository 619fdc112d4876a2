#include <stdio.h>
#include <stdlib.h>
static void finish(int code) {
    puts("bye");
    exit(code);
}
int main(void) {
    finish(7);
    puts("never printed");
    return 0;
}
