// KLEE's input intrinsics read their values from the test, in order.
#include <stdio.h>
extern void klee_make_symbolic(void *p, unsigned long n, const char *name);
extern int klee_int(const char *name);
extern int klee_range(int lo, int hi, const char *name);
extern void klee_assume(unsigned long cond);
int main(void) {
    char buf[3];
    klee_make_symbolic(buf, sizeof buf, "buf");
    int a = klee_int("a");
    int r = klee_range(10, 20, "r");
    klee_assume(a > 0);
    printf("%c%c%c %d %d\n", buf[0], buf[1], buf[2], a, r);
    return 0;
}
