#include <stdio.h>
int main(void) {
    for (char c = 'a'; c <= 'e'; c++) putchar(c);
    putchar('\n');
    return 0;
}
