// unreach-call is violated natively: glibc's malloc returns 16-byte aligned blocks whose address bits 4..11
// vary, and the stack lies above the heap on x86-64 Linux, so `(uintptr_t)&x > (uintptr_t)p` holds and
// reach_error is called (clang-14 -fsanitize=address,undefined: abort). The numeric values are the
// platform's choice (C11 6.3.2.3p6: the result of converting a pointer to an integer is
// implementation-defined). symex used to answer TRUE from its own layout ("the stack is below the heap":
// object ids in the high bits); a decision on address bits is now UNKNOWN.
#include <stdint.h>
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
    int x = 0;
    char *p = malloc(16);
    if (!p) return 0;
    if ((uintptr_t)&x > (uintptr_t)p) reach_error();
    free(p);
    return x;
}
