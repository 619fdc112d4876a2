// A file parser behind SAGE-style guards: a 4-byte magic "SYMX", a 32-bit little-endian body length that
// must fit the bytes read, and a 32-bit checksum (a multiplicative hash) over the body. Only a body that
// starts with "BUG" reaches the bug. Read from stdin (`symex fuzz --stdin`).
#include <stdio.h>
#include <stdlib.h>

static unsigned rd32(const unsigned char *p) {
    return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24;
}

int main(void) {
    unsigned char buf[32];
    size_t n = fread(buf, 1, sizeof buf, stdin);
    if (n < 12)
        return 1;
    if (buf[0] != 'S' || buf[1] != 'Y' || buf[2] != 'M' || buf[3] != 'X')
        return 1;
    unsigned len = rd32(buf + 4);
    if (len > n - 12)
        return 1;
    unsigned sum = 0;
    for (unsigned i = 0; i < len; i++)
        sum = sum * 31 + buf[12 + i];
    if (sum != rd32(buf + 8))
        return 1;
    if (len >= 3 && buf[12] == 'B' && buf[13] == 'U' && buf[14] == 'G')
        abort();
    return 0;
}
