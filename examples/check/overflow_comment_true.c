// no-overflow holds (TRUE): the large numbers below sit in comments and literals, not in the code.
// 4294967296 is 2^32, /* 99999999999 */ too; "3000000000" is a string and '9' a character.
// Natively (clang-14 -fsanitize=signed-integer-overflow,shift-base,shift-exponent): no report for
// any x in 0..1000 (the only inputs that reach the arithmetic).
extern int __VERIFIER_nondet_int(void);
/* A block comment: 18446744073709551615
   over two lines: 2147483648 */
int main(void) {
    const char *s = "3000000000 \" 4000000000"; // 5000000000
    int x = __VERIFIER_nondet_int();
    if (x < 0 || x > 1000)
        return 0;
    return x * 1000 + (s[0] == '3') + ('9' - '0');
}
