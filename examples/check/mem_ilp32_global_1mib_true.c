// unreach-call under --data-model ILP32: the right verdict is TRUE (clang-14 -m32, with and without
// -fsanitize=address,undefined: exit 0). symex's 32-bit addresses (`id << 20 | offset`) gave each object
// at most 512 KiB, so the 1 MiB global could not be placed: symex once stopped with exit 2 (bad input)
// on this valid program (SV-COMP's loops/heavy-2 pattern), then answered UNKNOWN; the split now gives
// the offset 22 bits when a global needs them, and the answer is TRUE.
extern void reach_error(void);
int big[1 << 18];
int main(void) {
    big[(1 << 18) - 1] = 1;
    if (big[0] != 0 || big[(1 << 18) - 1] != 1) reach_error();
    return 0;
}
