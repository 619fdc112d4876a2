// unreach-call holds: malloc of 4 GiB succeeds (SV-COMP assumes that allocation succeeds; natively, glibc
// with the default overcommit heuristic returns a block on this 24 GiB machine and the program exits 0
// under clang-14 -fsanitize=address,undefined with ASAN_OPTIONS=allocator_may_return_null=1), and the
// bytes written are read back. symex used to return NULL for blocks of 4 GiB or more (a wrong FALSE), to
// abort (exit 134) on 3.75 GiB, and then, with contents allocated up front, to answer UNKNOWN; contents
// are now stored lazily (untouched bytes cost nothing): TRUE.
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
    unsigned long n = 1UL << 32;
    char *p = malloc(n);
    if (!p) reach_error();
    p[0] = 1;
    p[n - 1] = 2;
    if (p[0] + p[n - 1] != 3) reach_error();
    free(p);
    return 0;
}
