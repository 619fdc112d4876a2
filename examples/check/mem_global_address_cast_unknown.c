// unreach-call: the platform decides; on x86-64 Linux it is TRUE (clang-14 plain, -no-pie, -m32 and with
// -fsanitize=address,undefined: exit 0, g does not start a page), symex answers UNKNOWN (never a verdict).
// At -O0 `(uintptr_t)&g` of a global is a constant expression (`ptrtoint (i32* @g to i64)`), not an
// instruction: symex used to give it the model's address `id << 40` unmarked, whose low bits are 0, and
// answered a wrong FALSE; a constant address converted to an integer is now marked as its object's
// address, like the instruction, and the decision on its bits is UNKNOWN.
#include <stdint.h>
extern void reach_error(void);
int pad = 1;
int g;
int main(void) {
    uintptr_t u = (uintptr_t)&g;
    if ((u & 0xfff) == 0) reach_error();
    return 0;
}
