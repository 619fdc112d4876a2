// A call through a function pointer of another type (undefined behaviour, C11 6.3.2.3p8) with symbolic
// arguments: `h` takes two longs, the call passes two ints, whose upper register halves are unspecified
// on x86-64. symex reports the call as unsupported (exit 2, named with its position) instead of
// panicking on ill-sorted terms.
int __VERIFIER_nondet_int(void);

long h(long x, long z) {
    if (x > z)
        return x;
    return z;
}

int main(void) {
    int b = __VERIFIER_nondet_int();
    int c = __VERIFIER_nondet_int();
    int (*k)(int, int) = (int (*)(int, int))h;
    return k(b, c) > 3;
}
