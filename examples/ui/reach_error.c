// SV-COMP: calling reach_error() is the error, whatever its body does.
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x == 42)
        reach_error();
    return 0;
}
