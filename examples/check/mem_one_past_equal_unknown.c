// unreach-call: the right verdict is FALSE, symex answers UNKNOWN (never TRUE). A pointer one past the end
// of one object may compare equal to a pointer to another object that happens to follow it (C11 6.5.9p6):
// a plain clang-14 build places b right after a and reach_error is called (exit through reach_error);
// under -fsanitize=address a redzone separates them and the program exits 0, so some run reaches the
// error. symex used to answer TRUE (its objects are apart); equality of a one-past-the-end (or dead)
// pointer with another object's pointer is now a decision on numeric addresses: UNKNOWN.
extern void reach_error(void);
int a[1];
int b[1];
int main(void) {
    int *end = a + 1;
    int *start = b;
    if (end == start) reach_error();
    return 0;
}
