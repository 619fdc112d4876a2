// valid-memsafety under --data-model ILP32 is violated (FALSE(valid-deref)): a write one element past
// the end of a 1 MiB global. Natively (clang-14 -m32 -fsanitize=address) AddressSanitizer reports a
// global-buffer-overflow. symex places the global with a 22-bit offset on i386 (its 20 bits hold only
// objects below 512 KiB), and the object's end is still where the write fails.
int big[1 << 18];
int main(void) {
    volatile int n = 1 << 18;
    big[n - 1] = 1;
    big[n] = 2;
    return big[0];
}
