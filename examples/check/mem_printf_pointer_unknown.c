// unreach-call: the right verdict is FALSE, symex answers UNKNOWN (never TRUE). printf returns the number
// of characters written, and `%p` prints the platform's address: glibc prints a heap block's address as
// 0x and 12 hex digits on x86-64 Linux (clang-14, with and without -fsanitize=address,undefined), so n is
// 15 and reach_error is called. symex used to count the digits of its own synthetic address (n = 14) and
// answered TRUE; the count of a printf that prints an object's address with `%p` is now an observed
// address, and a decision on it is UNKNOWN.
#include <stdio.h>
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
    int *p = malloc(sizeof(int));
    if (!p) return 0;
    int n = printf("%p\n", (void *)p);
    if (n == 15) reach_error();
    free(p);
    return 0;
}
