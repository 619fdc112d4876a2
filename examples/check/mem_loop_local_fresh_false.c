// unreach-call is violated: a local declared in a loop body starts each iteration with an indeterminate
// value (C11 6.2.4p6: a new instance of the object on each entry into its block, "the initial value of
// the object is indeterminate"), so in the second iteration `seen` need not be 1 and reach_error is
// reachable. A model that kept the previous iteration's value made this TRUE. (Natively, at -O0 the slot
// keeps its old value and the program exits 0: the violation needs the indeterminate value, which SV-COMP
// reads as a nondeterministic one, as `examples/check/mem_uninit_copy_true.c` does.)
extern void reach_error(void);
int main(void) {
    for (int i = 0; i < 2; i++) {
        int seen;
        if (i == 0) seen = 1;
        if (i == 1 && seen != 1) reach_error();
    }
    return 0;
}
