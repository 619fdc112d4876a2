// --data-model ILP32, valid-memsafety: the write is out of bounds (a[262144] is 1 MiB past a 4-element
// array), so the right verdict is FALSE(valid-deref); symex answers UNKNOWN, never TRUE. On i386 its
// addresses are `object id << 20 | offset`, so a + 1 MiB is the address of b, the next object: the path
// whose pointer arithmetic lands inside another object ends as unsupported (before this guard the write
// looked like a valid write to b and the verdict was a wrong TRUE).
extern int __VERIFIER_nondet_int(void);
int a[4];
int b[4];
int main(void) {
    int i = __VERIFIER_nondet_int();
    if (i == 262144) a[i] = 1;
    return b[0];
}
