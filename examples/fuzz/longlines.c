// A 4 KB configuration read line by line: 64 lines, and the bug needs the first 40 to carry their own
// two-letter tag ("aA", "bA", ... , "aB", ...). The tags are compared without branches, so one branch
// (`diff == 0`) decides them over 80 bytes of the 4096. Read from stdin (`symex fuzz --stdin`).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char line[128];
    int i = 0, diff = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (i < 40)
            diff |= (line[0] ^ ('a' + i % 26)) | (line[1] ^ ('A' + i / 26));
        i++;
    }
    if (i >= 40 && diff == 0)
        abort();
    return 0;
}
