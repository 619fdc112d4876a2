// Without --check-overflow, signed arithmetic wraps (what the machine does).
#include <stdio.h>
#include <limits.h>
int add(int a, int b) { return a + b; }
int main(void) {
    printf("%d\n", add(INT_MAX, 1));
    return 0;
}
