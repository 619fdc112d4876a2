/* Performance-guard workload: a scanner over 3 symbolic characters that counts words, digits and
 * other characters, branching on character classes. */
extern char __VERIFIER_nondet_char(void);
extern void reach_error(void);
static int letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int digit(char c) { return c >= '0' && c <= '9'; }
int main(void) {
    char text[4];
    for (int i = 0; i < 3; i++)
        text[i] = __VERIFIER_nondet_char();
    text[3] = 0;
    int words = 0, digits = 0, others = 0;
    for (int i = 0; text[i]; i++) {
        if (letter(text[i])) {
            if (i == 0 || !letter(text[i - 1]))
                words++;
        } else if (digit(text[i]))
            digits++;
        else
            others++;
    }
    if (words == 1 && digits == 1 && others == 1)
        reach_error();
    return 0;
}
