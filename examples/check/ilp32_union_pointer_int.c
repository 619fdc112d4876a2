// --data-model ILP32, unreach-call: TRUE. A pointer is 4 bytes on ILP32, so storing one into the union
// leaves the second `int` alone (with 8-byte pointers it is overwritten: the old 64-bit emulation said FALSE).
extern void reach_error(void);
union U {
    int *p;
    int i[2];
};
int main(void) {
    int x = 1;
    union U u;
    u.i[1] = 42;
    u.p = &x;
    if (u.i[1] != 42) reach_error();
    return 0;
}
