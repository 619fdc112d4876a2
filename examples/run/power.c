// The lecture's power(x): z = 2^x by repeated doubling; one path per value of x, so x is bounded.
int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int);

int power(int x) {
    int z = 1;
    while (x > 0) {
        x = x - 1;
        z = 2 * z;
    }
    return z;
}

int main(void) {
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x <= 5);
    return power(x) & 0;
}
