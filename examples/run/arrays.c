// Reads and writes at symbolic indices: neither forks by itself (the write updates every element the
// index may name, the read multiplexes over them); only the branch on what was read does. 2 paths, 1 abort.
int __VERIFIER_nondet_int(void);
void abort(void);

int main(void) {
    int a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
    a[i & 7] = 100;
    if (a[j & 7] == 100)
        abort(); // exactly when j & 7 == i & 7
    return a[(j + 1) & 7] & 1;
}
