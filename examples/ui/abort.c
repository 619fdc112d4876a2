// abort() ends the run as an `abort` bug.
#include <stdlib.h>
#include <stdio.h>
int main(void) {
    puts("about to abort");
    abort();
}
