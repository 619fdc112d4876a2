// scanf("%d") over symbolic stdin: 42 aborts.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int x;
    if (scanf("%d", &x) != 1)
        return 1;
    if (x == 42)
        abort();
    return 0;
}
