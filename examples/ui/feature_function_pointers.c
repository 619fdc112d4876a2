#include <stdio.h>
static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
static int apply(int (*f)(int), int x) { return f(x); }
struct op { const char *name; int (*fn)(int); };
int main(void) {
    struct op ops[] = {{"twice", twice}, {"square", square}};
    for (int i = 0; i < 2; i++)
        printf("%s(7) = %d\n", ops[i].name, apply(ops[i].fn, 7));
    return 0;
}
