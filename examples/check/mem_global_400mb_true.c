// unreach-call holds: a 400 MB zero-initialised global reads 0 where it was never written and the
// initialised prefix of a second large global keeps its values (C11 6.7.9p10: static storage is zeroed).
// Natively (clang-14 -fsanitize=address,undefined) the program exits 0. symex once stored every byte of a
// global up front (6.7 GB of host memory for this one); the zero tail is now the object's fill.
extern void reach_error(void);
static char big[400000000];
int table[50000000] = {1, 2, 3};
int main(void) {
    big[399999999] = 7;
    big[123456789] = 1;
    if (big[0] != 0 || big[200000000] != 0 || big[399999999] != 7) reach_error();
    if (table[0] + table[1] + table[2] != 6 || table[49999999] != 0) reach_error();
    table[49999999] = big[123456789];
    if (table[49999999] != 1) reach_error();
    return 0;
}
