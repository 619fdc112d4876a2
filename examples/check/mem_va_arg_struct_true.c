// unreach-call and valid-memsafety: TRUE, with 64-bit and with 32-bit pointers. Structs passed by value
// through `...` and read back with `va_arg(ap, struct S)`: 12 bytes (x86-64: two INTEGER eightbytes,
// passed in registers; i386: on the stack), 24 bytes (x86-64's MEMORY class: the struct's bytes are
// copied to the argument area, `byval` in the IR) and a struct holding a pointer
// (MEMORY class too).
// Native builds (clang-14 -fsanitize=address,undefined, with and without -m32) exit 0. symex used to
// answer FALSE(valid-deref): a 24-byte read of the 8-byte pointer it had put in the area.
#include <stdarg.h>
extern void reach_error(void);
struct S12 { int a, b, c; };
struct S24 { long long a, b, c; };
struct P { char tag; int *p; short s[5]; };
static int g = 40;
long long sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long long s = 0;
    for (int i = 0; i < n; i++) {
        struct S12 x = va_arg(ap, struct S12);
        struct S24 y = va_arg(ap, struct S24);
        struct P z = va_arg(ap, struct P);
        s += x.a + x.b + x.c + y.a + y.b + y.c + z.tag + *z.p + z.s[4];
    }
    va_end(ap);
    return s;
}
int main(void) {
    struct S12 x = {1, 2, 3};
    struct S24 y = {10, 20, 30};
    struct P z = {5, &g, {0, 0, 0, 0, 7}};
    if (sum(2, x, y, z, x, y, z) != 2 * (6 + 60 + 5 + 40 + 7)) reach_error();
    return 0;
}
