// A switch of 15 case values onto 2 targets plus the default: one path per distinct target (3), as
// KLEE forks, not one per case value (16). Brute force over the 256 inputs, natively: 3 distinct results.
unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
    unsigned char c = __VERIFIER_nondet_uchar();
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
        return 1;
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        return 2;
    default:
        return 0;
    }
}
