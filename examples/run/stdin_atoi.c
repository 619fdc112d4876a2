// atoi over symbolic bytes: its value follows the bytes on every path (42 aborts; a "7" that does not
// read as 7 would be a false alarm).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char buf[4] = {0};
    size_t n = fread(buf, 1, 3, stdin);
    int v = atoi(buf);
    if (buf[0] == '7' && v != 7 && n == 1)
        return 3;
    if (v == 42)
        abort();
    return v < 0 ? 2 : 0;
}
