// unreach-call holds: the difference of two pointers into one array is the difference of their indices
// (C11 6.5.6p9), and comparisons of pointers into one object follow their positions (6.5.8p5), whatever the
// addresses are. Converting to integers and back is not needed for that, but `p - q` is computed through
// ptrtoint by clang: it must stay decided. Natively the program exits 0.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int a[8];
    int i = __VERIFIER_nondet_int();
    if (i < 0 || i > 7) return 0;
    int *p = &a[i], *q = &a[0];
    if (p - q != i) reach_error();
    if (i > 2 && !(p > q)) reach_error();
    return 0;
}
