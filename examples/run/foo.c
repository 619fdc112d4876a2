// The lecture's foo(x, y): three paths (x > y with y - x == 0, x <= y with y - x <= 7, and with y - x > 7).
int __VERIFIER_nondet_int(void);

int input(void) { return __VERIFIER_nondet_int(); }

int foo(int x, int y) {
    if (x > y)
        y = x;
    y = y - x;
    if (y > 7)
        x = input();
    return x + y;
}

int main(void) {
    int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
    return foo(x, y) & 0;
}
