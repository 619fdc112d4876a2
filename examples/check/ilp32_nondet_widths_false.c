// --data-model ILP32, unreach-call: FALSE. The inputs have the program's own widths on i386: a pointer,
// a long and an unsigned long are 4 bytes, a long long 8, and the test gives exactly those bytes, so the
// native `clang-14 -m32` build replays it to reach_error with nothing left over or missing. A pointer
// input used to be 8 bytes (its upper half a value the i386 build never sees).
extern void reach_error(void);
extern void *__VERIFIER_nondet_pointer(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern long long __VERIFIER_nondet_longlong(void);
int a[8];
int main(void) {
    char *p = __VERIFIER_nondet_pointer();
    unsigned long i = __VERIFIER_nondet_ulong();
    long j = __VERIFIER_nondet_long();
    long long k = __VERIFIER_nondet_longlong();
    if (p == (char *)0x1234 && i < 8 && j < -5 && k > (1LL << 40)) {
        a[i] = 1;
        if (a[7] == 1) reach_error();
    }
    return 0;
}
