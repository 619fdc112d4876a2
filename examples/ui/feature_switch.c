#include <stdio.h>
static const char *name(int d) {
    switch (d) {
    case 0: return "zero";
    case 1:
    case 2: return "small";
    case 100: return "hundred";
    case -1: return "minus one";
    default: return "other";
    }
}
int main(void) {
    int xs[] = {0, 1, 2, 3, 100, -1};
    for (int i = 0; i < 6; i++) printf("%s ", name(xs[i]));
    putchar('\n');
    return 0;
}
