// Seven independent symbolic branches, then some work on every path: 128 paths for a campaign of
// several workers to share (docs/src/campaign.md).
void klee_make_symbolic(void *, unsigned long, const char *);

int main(void) {
    unsigned char in[7];
    klee_make_symbolic(in, sizeof in, "in");
    unsigned n = 0;
    for (int i = 0; i < 7; i++)
        if (in[i] > 'm')
            n |= 1u << i;
    unsigned h = n;
    for (int k = 0; k < 5000; k++)
        h = h * 31 + (unsigned)k;
    return (int)(h % 2);
}
