// A 4 KB configuration read line by line: 64 lines, and the bug needs the first 40 to carry their own
// two-letter tag ("aA", "bA", ... , "aB", ...). The tag count is computed without branches, so one
// branch (`ok == 40`) decides it over 80 bytes of the 4096. Read from stdin (`symex fuzz --stdin`).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char line[128];
    int i = 0, ok = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (i < 40)
            ok += (line[0] == 'a' + i % 26) & (line[1] == 'A' + i / 26);
        i++;
    }
    if (i >= 40 && ok == 40)
        abort();
    return 0;
}
