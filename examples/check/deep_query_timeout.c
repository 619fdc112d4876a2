// A query whose construction is deep: x is mixed 30000 times (multiplication, xor, shifts) before one
// branch on it, so the term the solver is given has about 200000 nested operations. The
// verdict is not the point (unreach-call's truth depends on the hash); `--max-time` must end the run with
// UNKNOWN even while that query is being built (issue 8, defect 10: a 20 s limit once ran past 200 s).
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
    unsigned x = __VERIFIER_nondet_uint();
    for (unsigned i = 0; i < 30000; i++)
        x = (x ^ (x >> 7)) * 2654435761u + (x << 3) + i;
    if (x == 12345u)
        reach_error();
    return 0;
}
