// King (1976): sum(a, b, c) returns a + b + c; one path, whose result is the symbolic a + b + c.
#include <assert.h>
int __VERIFIER_nondet_int(void);

int sum(int a, int b, int c) {
    int x = a + b;
    int y = b + c;
    int z = x + y - b;
    return z;
}

int main(void) {
    int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), c = __VERIFIER_nondet_int();
    // On the one path, z = a + b + c holds for every input: no input violates the assertion.
    assert(sum(a, b, c) == a + b + c);
    return 0;
}
