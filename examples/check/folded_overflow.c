// no-overflow is violated (FALSE): -INT_MIN overflows int (C11 6.5p5), but clang folds it at compile time
// to INT_MIN without a warning, so no instruction was left to check (symex answered TRUE). Natively
// (clang-14 -fsanitize=signed-integer-overflow): "negation of INT_MIN cannot be represented" (in digits).
#include <limits.h>
int main(void) {
    int x = -INT_MIN;
    return x < 0;
}
