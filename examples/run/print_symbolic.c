// puts and putchar of symbolic bytes. Where the string ends decides how far puts reads and what it
// returns (1 or 2, or an out-of-bounds read without a NUL); putchar returns the byte it writes.
#include <stdio.h>

char __VERIFIER_nondet_char(void);

int main(void) {
    char s[2];
    s[0] = __VERIFIER_nondet_char();
    s[1] = __VERIFIER_nondet_char();
    if (putchar(s[1]) == 'a' && s[1] != 'a')
        return 3;
    return puts(s);
}
