#include <stdio.h>
#include <stdarg.h>
static long sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}
static void show(const char *tag, ...) {
    va_list ap, copy;
    va_start(ap, tag);
    va_copy(copy, ap);
    long l = va_arg(ap, long);
    const char *s = va_arg(ap, const char *);
    long again = va_arg(copy, long);
    printf("%s %ld %s %ld\n", tag, l, s, again);
    va_end(copy);
    va_end(ap);
}
int main(void) {
    printf("%ld\n", sum(5, 1, 2, 3, 4, 5));
    printf("%ld\n", sum(8, 1, 1, 1, 1, 1, 1, 1, 100));
    show("tag", 1234567890123L, "str");
    return 0;
}
