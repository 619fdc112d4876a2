// What printf returns counts the printed length of a symbolic value as a function of it: the branches on
// it fork (and "n == 4" with 0 <= x < 100 stays infeasible, as natively).
#include <stdio.h>

int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    int n = printf("%d\n", x);
    if (n == 4 && x >= 0 && x < 100)
        return 3;
    if (n == 12)
        return 1;
    return 0;
}
