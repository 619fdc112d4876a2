// reach_error is reached exactly when a == 3 and b == a * 7 + 1 (= 22): one run of 2^64 violates
// unreach-call. The witnesses beside this file describe it (or miss it) in GraphML 1.0 and YAML 2.0.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    if (a == 3) {
        if (b == a * 7 + 1) {
            reach_error();
        }
    }
    return 0;
}
