// A tree of 12 branches over the bits of a hash of the 16 input bytes (MurmurHash3's 32-bit mixing):
// the crash needs 12 chosen bits of the hash, 1 input in 4096. Each bit's query is over the whole hash,
// the kind a solver may not answer in time; a mutator guided by coverage finds one bit at a time.
// Read from stdin (`symex fuzz --stdin`).
#include <stdio.h>
#include <stdlib.h>

static unsigned rotl(unsigned x, int r) { return x << r | x >> (32 - r); }

static unsigned murmur(const unsigned char *p, int n) {
    unsigned h = 0x9747b28c;
    for (int i = 0; i + 4 <= n; i += 4) {
        unsigned k = p[i] | p[i + 1] << 8 | p[i + 2] << 16 | (unsigned)p[i + 3] << 24;
        k *= 0xcc9e2d51;
        k = rotl(k, 15);
        k *= 0x1b873593;
        h ^= k;
        h = rotl(h, 13);
        h = h * 5 + 0xe6546b64;
    }
    h ^= n;
    h ^= h >> 16;
    h *= 0x85ebca6b;
    h ^= h >> 13;
    h *= 0xc2b2ae35;
    h ^= h >> 16;
    return h;
}

int main(void) {
    unsigned char buf[16] = {0};
    if (fread(buf, 1, sizeof buf, stdin) != sizeof buf)
        return 1;
    unsigned h = murmur(buf, sizeof buf);
    if (h & 1)
        if (!(h & 2))
            if (h & 4)
                if (h & 8)
                    if (!(h & 16))
                        if (h & 32)
                            if (!(h & 64))
                                if (h & 128)
                                    if (h & 256)
                                        if (!(h & 512))
                                            if (h & 1024)
                                                if (!(h & 2048))
                                                    abort();
    return 0;
}
