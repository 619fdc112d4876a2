// unreach-call: the right verdict is FALSE, symex answers UNKNOWN (never TRUE). `getline` stores the
// address of the buffer it allocates into `line`; `memcpy` copies that pointer's bytes into an `unsigned
// long`, so the test is on the platform's address bits: a heap block's address is never a multiple of
// 2^40 on x86-64 Linux, and reach_error is called whatever stdin holds (glibc allocates the buffer before
// reading; clang-14, with and without -fsanitize=address,undefined). symex used to store its synthetic
// address (`id << 40`, low bits zero) with no provenance and answered TRUE; the model's store of the
// buffer pointer is now a pointer store, so the integer loaded from it is an observed address and a
// decision on it is UNKNOWN.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
    char *line = NULL;
    size_t cap = 0;
    getline(&line, &cap, stdin);
    unsigned long a;
    memcpy(&a, &line, sizeof a);
    if ((a & 0xffffffffffUL) != 0) reach_error();
    free(line);
    return 0;
}
