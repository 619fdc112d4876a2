// Reaching __builtin_unreachable() is undefined behaviour, reported as `unreachable`.
int classify(int x) {
    switch (x & 3) {
    case 0: return 10;
    case 1: return 11;
    case 2: return 12;
    }
    __builtin_unreachable();
}
int main(void) { return classify(2) + classify(3); }
