#include <stdio.h>
int main(void) {
    int n = printf("[%d|%i|%u|%x|%X|%c|%s|%%]\n", -1, 42, 4000000000u, 255, 255, 'q', "str");
    printf("[%5d|%-5d|%05d|%.3d|%+d|% d]\n", 42, 42, -42, 7, 3, 3);
    printf("[%ld|%lu|%lld|%llu|%lx]\n", -1L, 18446744073709551615UL, -9000000000LL, 9000000000ULL, 0xdeadbeefcafeUL);
    printf("[%8s|%-8s|%.2s|%hhd|%hd]\n", "right", "left", "cut", 300, 70000);
    printf("%d %p\n", n, (void *)0);
    return 0;
}
