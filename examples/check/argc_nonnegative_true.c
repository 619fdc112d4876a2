// unreach-call holds (TRUE) for every argc: C11 5.1.2.2.1p2 makes argc nonnegative, so the first branch
// is dead, and an index taken modulo 4 of a nonnegative int stays in the array whose entries are all
// below 10. Natively (clang-14) the program exits 0 with 0 to 8 arguments; symex explores every argc >= 0.
#include <stdlib.h>
void reach_error(void) { abort(); }
int main(int argc, char **argv) {
    if (argc < 0)
        reach_error();
    int table[4] = {1, 3, 5, 7};
    if (table[argc % 4] >= 10)
        reach_error();
    return 0;
}
