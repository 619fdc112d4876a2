#include <stdio.h>
#include <stdint.h>
union word { uint32_t u; uint8_t b[4]; int16_t h[2]; };
int main(void) {
    union word w;
    w.u = 0x11223344;
    printf("%x %x %d\n", w.b[0], w.b[3], w.h[1]);
    w.b[0] = 0xff;
    printf("%x\n", w.u);
    return 0;
}
