// unreach-call: the platform decides; on x86-64 Linux it is TRUE (clang-14 plain, -no-pie, -m32 and with
// -fsanitize=address,undefined: exit 0, x does not start a page), symex answers UNKNOWN (never a verdict).
// The union's pointer comes from the global's initial image (a relocation), and its integer member reads
// the address's bits: symex used to read the model's address `id << 40` unmarked and answered a wrong
// FALSE; the image's relocations are now recorded as stored pointers, so the integer is an observed
// address and the decision on its bits is UNKNOWN.
#include <stdint.h>
extern void reach_error(void);
int pad = 1;
int x;
union U {
    int *p;
    uintptr_t u;
} g = {&x};
int main(void) {
    if ((g.u & 0xfff) == 0) reach_error();
    return 0;
}
