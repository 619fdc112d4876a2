// A failed assert() is an `assertion` bug at the assert's line.
#include <assert.h>
int main(void) {
    int x = 2;
    assert(x + x == 4);
    assert(x * x == 5);
    return 0;
}
