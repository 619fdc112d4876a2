#include <stdio.h>
static int counter = 10;
static const char *names[] = {"zero", "one", "two"};
static int table[2][3] = {{1, 2, 3}, {4, 5, 6}};
static int *ptr_to_table = &table[1][1];
struct cfg { int a; const char *s; int *p; };
static struct cfg config = {5, "cfg", &counter};
static void bump(void) { counter++; }
int main(void) {
    bump();
    bump();
    printf("%d %s %d %d %s %d\n", counter, names[2], *ptr_to_table, table[0][2], config.s, *config.p);
    return 0;
}
