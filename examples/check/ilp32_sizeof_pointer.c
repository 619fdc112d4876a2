// --data-model ILP32, unreach-call: FALSE. `sizeof(void *)` is 4 on ILP32 (8 with the old emulation, which
// said TRUE), and an array of pointers is 4 bytes per element.
extern void reach_error(void);
int main(void) {
    void *table[3];
    if (sizeof(void *) == 4 && sizeof table == 12) reach_error();
    return 0;
}
