// unreach-call holds (TRUE): whatever the program declares, __VERIFIER_nondet_bool returns a _Bool (0 or
// 1) and __VERIFIER_nondet_uchar an unsigned char (0..255), the types SV-COMP defines for them. Here
// nondet_bool is declared `int` and nondet_uchar is declared implicitly (C89 `int`); symex took any int.
// (C11 6.3.1.2: a _Bool is 0 or 1; 5.2.4.2.1: UCHAR_MAX is 255 on x86-64.)
extern int __VERIFIER_nondet_bool(void);
void reach_error(void);
int main(void) {
    int b = __VERIFIER_nondet_bool();
    int c = __VERIFIER_nondet_uchar();
    if (b != 0 && b != 1)
        reach_error();
    if (c < 0 || c > 255)
        reach_error();
    return 0;
}
