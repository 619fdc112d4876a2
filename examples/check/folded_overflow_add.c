// no-overflow is violated (FALSE): INT_MAX + 1 overflows int; clang folds it (with -Winteger-overflow's
// warning) to INT_MIN. Natively (clang-14 -fsanitize=signed-integer-overflow): "signed integer overflow:
// 2147483647 + 1 cannot be represented in type 'int'".
#include <limits.h>
int main(void) {
    int x = INT_MAX + 1;
    return x < 0;
}
