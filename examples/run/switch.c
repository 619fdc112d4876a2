// A switch on an input byte, a division whose divisor may be zero, and a symbolic index into a table.
int __VERIFIER_nondet_int(void);
unsigned char __VERIFIER_nondet_uchar(void);

static const int table[4] = {3, 1, 4, 1};

int main(void) {
    unsigned char op = __VERIFIER_nondet_uchar();
    int a = __VERIFIER_nondet_int();
    int r;
    switch (op) {
    case 'a': r = a + 1; break;
    case 'm': r = a * 3; break;
    case 'd': r = 100 / a; break;  // a == 0: div-by-zero
    default: r = table[op & 3];
    }
    return r > 2;
}
