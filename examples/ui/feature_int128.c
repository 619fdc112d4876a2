#include <stdio.h>
static unsigned __int128 widen(unsigned long long x) { return x; }
int main(void) {
    unsigned long long m = 0xFFFFFFFFFFFFFFFFULL;
    unsigned __int128 a = widen(m) * widen(m);
    __int128 b = -(__int128)(widen(1) << 100);
    __int128 q = b / 12345;
    __int128 r = b % 12345;
    unsigned __int128 s = a >> 64;
    printf("%llx %llx\n", (unsigned long long)(a >> 64), (unsigned long long)a);
    printf("%lld %lld %d\n", (long long)(q >> 64), (long long)r, b < 0);
    printf("%llx %d\n", (unsigned long long)(s + 1), (int)__builtin_popcountll((unsigned long long)(a >> 60)));
    return 0;
}
