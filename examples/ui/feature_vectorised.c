// symex-flags: --cflags=-O2
// At -O2 clang vectorises these loops: vector arithmetic, compares, selects, shuffles and reductions.
#include <stdio.h>
#include <stdint.h>
static int32_t a[64], b[64], c[64];
static uint8_t bytes[64];
int main(void) {
    for (int i = 0; i < 64; i++) { a[i] = i * 7 - 100; b[i] = 3 * i; bytes[i] = (uint8_t)(i * 37); }
    for (int i = 0; i < 64; i++) c[i] = a[i] > b[i] ? a[i] - b[i] : b[i] * 2;
    long sum = 0;
    int32_t mx = INT32_MIN;
    unsigned x = 0;
    for (int i = 0; i < 64; i++) { sum += c[i]; mx = c[i] > mx ? c[i] : mx; x ^= bytes[i]; }
    for (int i = 0; i < 63; i++) bytes[i] = (uint8_t)(bytes[i + 1] + bytes[i]) >> 1;
    unsigned s2 = 0;
    for (int i = 0; i < 64; i++) s2 += bytes[i];
    printf("%ld %d %u %u\n", sum, mx, x, s2);
    return 0;
}
