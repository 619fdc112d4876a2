// unreach-call under --data-model ILP32: the right verdict is TRUE (clang-14 -m32, with and without
// -fsanitize=address,undefined: exit 0). symex's 32-bit addresses give each object at most 512 KiB
// (`id << 20 | offset`), so the 1 MiB global cannot be placed: symex used to stop with exit 2 (bad input)
// on this valid program (SV-COMP's loops/heavy-2 pattern); it now answers UNKNOWN with the reason.
extern void reach_error(void);
int big[1 << 18];
int main(void) {
    big[(1 << 18) - 1] = 1;
    if (big[0] != 0 || big[(1 << 18) - 1] != 1) reach_error();
    return 0;
}
