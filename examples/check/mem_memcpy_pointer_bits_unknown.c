// unreach-call: the right verdict is FALSE, symex answers UNKNOWN (never TRUE). `memcpy` copies each
// pointer's bytes into an `unsigned long`, so the comparison is on numeric addresses: on x86-64 Linux the
// stack lies above the heap and reach_error is called (clang-14, with and without
// -fsanitize=address,undefined). symex used to answer TRUE from its own layout; the copy keeps the bytes'
// provenance (stored as a pointer), the integer loaded from them is an observed address, and a decision
// on it is UNKNOWN.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
    int x = 0;
    int *px = &x;
    char *p = malloc(16);
    if (!p) return 0;
    unsigned long a, b;
    memcpy(&a, &px, sizeof a);
    memcpy(&b, &p, sizeof b);
    if (a > b) reach_error();
    free(p);
    return x;
}
