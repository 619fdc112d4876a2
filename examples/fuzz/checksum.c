// A packet with a Fletcher-style checksum (two running sums modulo 256): a type byte, a 14-byte
// payload, and the two check bytes over type and payload. A valid packet of type 'C' whose payload starts with "RUN" and ends with a
// zero byte reaches the bug. Read from stdin (`symex fuzz --stdin`).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    unsigned char p[17];
    if (fread(p, 1, sizeof p, stdin) != sizeof p)
        return 1;
    unsigned s1 = 0, s2 = 0;
    for (int i = 0; i < 15; i++) {
        s1 = (s1 + p[i]) & 0xff;
        s2 = (s2 + s1) & 0xff;
    }
    if (p[15] != s1 || p[16] != s2)
        return 1;
    if (p[0] != 'C')
        return 2;
    if (p[1] == 'R' && p[2] == 'U' && p[3] == 'N' && p[14] == 0)
        abort();
    return 0;
}
