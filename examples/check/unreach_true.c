// unreach-call holds: x * x is never 2 modulo 4 (squares are 0 or 1 mod 4); abort() is a normal end.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x < -1000 || x > 1000) abort();
    if ((x * x) % 4 == 2) reach_error();
    return 0;
}
