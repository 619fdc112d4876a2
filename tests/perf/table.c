/* Performance-guard workload: reads of a 32-byte table at symbolic indices (no fork per index), a
 * branch on each value read (2^4 paths), then one more branch on the sum (32 paths). */
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
unsigned char table[32];
int main(void) {
    for (unsigned i = 0; i < 32; i++)
        table[i] = (unsigned char)(i * 29 + 7);
    unsigned sum = 0;
    for (int round = 0; round < 4; round++) {
        unsigned char v = table[__VERIFIER_nondet_uint() % 32];
        sum += v;
        if (v & 2)
            sum ^= 0x33;
    }
    if (sum == 300)
        reach_error();
    return 0;
}
