#include <stdio.h>
struct flags { unsigned a : 3; signed b : 5; unsigned c : 1; unsigned long long d : 40; };
int main(void) {
    struct flags f = {0};
    f.a = 9;          /* truncated to 1 */
    f.b = -3;
    f.c = 1;
    f.d = 0xABCDEF1234ULL;
    f.b += 20;        /* 17 wraps to -15 */
    printf("%u %d %u %llx %zu\n", f.a, f.b, f.c, (unsigned long long)f.d, sizeof f);
    return 0;
}
