// 128-bit constants whose low halves are equal, shifts, division and comparison of __int128.
#include <stdio.h>
int main(void) {
    unsigned __int128 a = (unsigned __int128)0xFFFFFFFFFFFFFFFFULL * 0xFFFFFFFFFFFFFFFFULL;
    __int128 one = 1, big = ((__int128)1 << 64) + 1;
    __int128 b = -((__int128)1 << 100);
    printf("%llx %llx\n", (unsigned long long)(a >> 64), (unsigned long long)a);
    printf("%lld %lld %d %d\n", (long long)(b / 12345 >> 64), (long long)(b % 12345), b < 0, one != big);
    printf("%llx %llx\n", (unsigned long long)(big >> 64), (unsigned long long)big);
    return 0;
}
