#include <stdio.h>
static unsigned long fact(unsigned n) { return n ? n * fact(n - 1) : 1; }
static int ackermann(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}
static int is_even(int n);
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
int main(void) {
    printf("%lu %d %d\n", fact(20), ackermann(2, 3), is_even(101));
    return 0;
}
