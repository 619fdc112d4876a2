// An undefined weak function has a null address (ELF): `if (weak_fn)` is false and the program exits 0.
// Natively (clang-14, linked without a definition of weak_fn): exit status 0.
extern void weak_fn(void) __attribute__((weak));
void (*table[1])(void) = {weak_fn};

int main(void) {
    if (table[0])
        return 2;
    if (weak_fn) {
        weak_fn();
        return 1;
    }
    return 0;
}
