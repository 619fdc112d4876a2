// no-overflow is violated (FALSE): the program defines reach_error and it returns, so under no-overflow
// it is an ordinary call (only unreach-call makes its call the error) and x + 1 overflows after it for
// x == INT_MAX. Natively (clang-14 -fsanitize=undefined, nondet = 2147483647): "signed integer overflow".
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x == 2147483647) {
        reach_error();
        return x + 1;
    }
    return 0;
}
