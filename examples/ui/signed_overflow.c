// symex-flags: --check-overflow
// INT_MAX + 1 is reported when overflow checking is on.
#include <limits.h>
int add(int a, int b) { return a + b; }
int main(void) {
    int x = add(INT_MAX - 1, 1);
    return add(x, 1) == 0;
}
