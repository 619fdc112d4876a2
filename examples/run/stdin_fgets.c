// fgets stops after a newline: "hi\n" aborts, and so does "hi" at the end of input.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char line[8];
    if (!fgets(line, sizeof line, stdin))
        return 1;
    if (strcmp(line, "hi\n") == 0 || strcmp(line, "hi") == 0)
        abort();
    return 0;
}
