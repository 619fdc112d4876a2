// --data-model ILP32, unreach-call: TRUE. Ten thousand calls, each with its own locals: more stack objects
// than 32-bit addresses can give ids to (4095) unless the ids of locals whose address never escapes are
// reused after their function returns.
extern void reach_error(void);
static void check(int cond) {
    if (!cond) reach_error();
}
static int square(int v) {
    int r = v * v;
    return r;
}
int main(void) {
    int sum = 0;
    for (int i = 0; i < 10000; i++) {
        check(square(i % 7) < 49);
        sum += i % 2;
    }
    check(sum == 5000);
    return 0;
}
