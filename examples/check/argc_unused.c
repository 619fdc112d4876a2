// unreach-call holds (TRUE): main has parameters but never reads them, so argc = 1 covers every run.
void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(int argc, char **argv) {
    int x = __VERIFIER_nondet_int();
    if (x > 0 && x < 0)
        reach_error();
    return 0;
}
