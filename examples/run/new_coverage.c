// Four input bytes each tested against 'a': 16 paths, but after the first two every block is covered,
// so `--tests new-coverage` writes a test only for the few paths that entered a block first (at most one
// per block), as KLEE's --only-output-states-covering-new does.
unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
    int count = 0;
    for (int i = 0; i < 4; i++) {
        if (__VERIFIER_nondet_uchar() == 'a')
            count++;
    }
    return count;
}
