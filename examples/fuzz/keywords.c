// A query language's keywords: the first line must read "SELECT <field> FROM <table> WHERE <cond>"
// word by word (strcmp against the keywords), and a table named "users" with the condition "1" hits
// the bug. Read from stdin (`symex fuzz --stdin`).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char line[64];
    if (!fgets(line, sizeof line, stdin))
        return 1;
    char *w[6];
    int n = 0;
    char *p = line;
    while (n < 6) {
        while (*p == ' ')
            p++;
        if (*p == '\0' || *p == '\n')
            break;
        w[n++] = p;
        while (*p && *p != ' ' && *p != '\n')
            p++;
        if (*p)
            *p++ = '\0';
    }
    if (n != 6)
        return 1;
    if (strcmp(w[0], "SELECT") != 0 || strcmp(w[2], "FROM") != 0 || strcmp(w[4], "WHERE") != 0)
        return 1;
    if (strcmp(w[3], "users") == 0 && strcmp(w[5], "1") == 0)
        abort();
    return 0;
}
