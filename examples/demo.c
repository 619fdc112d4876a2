// symex's demo program: a tiny command interpreter with an off-by-one bug.
// `symex replay examples/demo.c examples/demo.test.json` runs it on the test's input and reports the bug.
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);

static int history[4];

static void record(int slot, int value) {
    history[slot] = value; // slot 4 writes past the array
}

int main(void) {
    int command = __VERIFIER_nondet_int();
    printf("command %d\n", command);
    if (command >= 0 && command <= 4) {
        record(command, command * 10);
        printf("recorded %d\n", history[command % 4]);
    } else {
        puts("unknown command");
    }
    return 0;
}
