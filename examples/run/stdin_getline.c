// getline reads through the first newline into a heap block it allocates (and grows): the line "ok\n"
// aborts, and the block must be freed whatever was read (a leak otherwise).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t len = getline(&line, &cap, stdin);
    if (len == 3 && strcmp(line, "ok\n") == 0)
        abort();
    free(line);
    return len < 0 ? 1 : 0;
}
