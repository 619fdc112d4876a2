// SV-COMP nondet functions of several widths; missing inputs are zero.
#include <stdio.h>
extern char __VERIFIER_nondet_char(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern long __VERIFIER_nondet_long(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
    char c = __VERIFIER_nondet_char();
    unsigned short s = __VERIFIER_nondet_ushort();
    long l = __VERIFIER_nondet_long();
    _Bool b = __VERIFIER_nondet_bool();
    unsigned u = __VERIFIER_nondet_uint();
    printf("%d %u %ld %d %u\n", c, s, l, b, u);
    return 0;
}
