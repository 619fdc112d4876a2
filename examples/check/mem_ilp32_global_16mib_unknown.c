// unreach-call under --data-model ILP32: the right verdict is TRUE (clang-14 -m32, with and without
// -fsanitize=address,undefined: exit 0). A 16 MiB global is beyond what symex's 32-bit addresses place
// (the offset takes at most 24 bits, objects below 8 MiB): UNKNOWN with the reason, not exit 2.
extern void reach_error(void);
int big[1 << 22];
int main(void) {
    big[(1 << 22) - 1] = 1;
    if (big[0] != 0 || big[(1 << 22) - 1] != 1) reach_error();
    return 0;
}
