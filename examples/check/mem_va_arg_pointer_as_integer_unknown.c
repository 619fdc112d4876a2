// unreach-call: the right verdict is FALSE, symex answers UNKNOWN (never TRUE). A pointer passed through
// `...` is read back by `va_arg` as an `unsigned long` (the same size and argument class on x86-64), so the
// test is on the platform's address bits: a heap block's address is never a multiple of 2^40 on x86-64
// Linux, and reach_error is called (clang-14, with and without -fsanitize=address,undefined). symex used to
// read its own synthetic address (`id << 40`, low bits zero) unmarked and answered TRUE; the variadic
// area records the pointer as stored as a pointer, so the integer `va_arg` loads is an observed address
// and a decision on it is UNKNOWN.
#include <stdarg.h>
#include <stdlib.h>
extern void reach_error(void);
static unsigned long first(int n, ...) {
    va_list ap;
    va_start(ap, n);
    unsigned long a = va_arg(ap, unsigned long);
    va_end(ap);
    return a;
}
int main(void) {
    char *p = malloc(16);
    if (!p) return 0;
    if ((first(1, p) & 0xffffffffffUL) != 0) reach_error();
    free(p);
    return 0;
}
