// valid-memsafety: TRUE (native builds with clang-14 -fsanitize=address,undefined, with and without -m32,
// exit 0). With 64-bit pointers symex answers TRUE; with 32-bit pointers it answers UNKNOWN. Each
// object's pointers keep its provenance within half a region of it (512 KiB on i386): `a + 3 MiB` is
// further, where another object's bytes may lie, so the model poisons it (a dereference there is a
// violation, see ilp32_index_into_next_object.c), and bringing it back to `a` asks for the object the
// poison forgot: the path ends as unsupported, never as a wrong FALSE.
extern void reach_error(void);
char a[16];
char b[16];
int main(void) {
    char *p = a + (1L << 20) * 3;
    char *q = p - (1L << 20) * 3;
    q[1] = 5;
    if (a[1] != 5) reach_error();
    return 0;
}
