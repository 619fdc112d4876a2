// Swaps x and -y forever once both are above INT_MIN (below it, -y would overflow): the loop has no
// condition block, so its head's first line is inside the body; a termination witness's cycle head must
// still name the `while` line.
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
    if (x == -2147483647 - 1 || y == -2147483647 - 1)
        return 0;
    while (1) {
        int old = x;
        x = -y;
        y = old;
    }
    return 0;
}
