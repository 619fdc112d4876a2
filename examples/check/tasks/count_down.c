// A format-1.0 task (no options: the data model is --data-model's): the loop counts down from a
// nondeterministic value below 10 and the error is unreachable.
extern void abort(void);
void reach_error(void) { abort(); }
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
    unsigned char n = __VERIFIER_nondet_uchar() % 10;
    while (n > 0)
        n--;
    if (n != 0)
        reach_error();
    return 0;
}
