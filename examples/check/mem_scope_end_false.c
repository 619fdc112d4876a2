// valid-memsafety is violated (valid-deref): `x`'s lifetime ends when its block is left (C11 6.2.4p2,6),
// so `*p` reads a dead object. Natively (clang-14 -fsanitize=address) this is a stack-use-after-scope.
int main(void) {
    int *p;
    {
        int x = 1;
        p = &x;
    }
    return *p;
}
