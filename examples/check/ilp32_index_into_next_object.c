// --data-model ILP32, valid-memsafety: FALSE(valid-deref). The write is out of bounds (a[262144] is 1 MiB
// past a 4-element array; a native `clang-14 -m32 -fsanitize=address` run reports it). On i386 symex's
// addresses are `object id << 20 | offset`, so a + 1 MiB is the address of b, the next object: pointer
// arithmetic that takes a pointer more than half a region (512 KiB) from its object is poisoned (the result
// points to no object, as on 64-bit targets), so the write is reported instead of looking like a valid write
// to b (a wrong TRUE before the poison).
extern int __VERIFIER_nondet_int(void);
int a[4];
int b[4];
int main(void) {
    int i = __VERIFIER_nondet_int();
    if (i == 262144) a[i] = 1;
    return b[0];
}
