// unreach-call is violated (FALSE) exactly when main runs with argc == 3: natively (clang-14) `./a.out x y`
// aborts in reach_error and every other argument count exits 0. The violation's test gives argc = 3,
// which `symex replay --native` reproduces by running the build with two arguments.
#include <stdlib.h>
void reach_error(void) { abort(); }
int main(int argc, char **argv) {
    int steps = 0;
    for (int i = 0; i < argc && i < 10; i++)
        steps += 2;
    if (steps == 6)
        reach_error();
    return 0;
}
