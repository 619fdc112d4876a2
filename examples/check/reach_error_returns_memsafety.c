// valid-memsafety is violated (FALSE(valid-deref)): reach_error is defined and returns, so under
// valid-memsafety the path goes on after it to the null dereference. Natively (clang-14
// -fsanitize=address, nondet = 1): "SEGV on unknown address 0x000000000000".
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
    int *p = 0;
    if (__VERIFIER_nondet_int()) {
        reach_error();
        return *p;
    }
    return 0;
}
