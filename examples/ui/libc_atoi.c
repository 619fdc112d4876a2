#include <stdio.h>
#include <stdlib.h>
int main(void) {
    printf("%d %d %d\n", atoi("  -123abc"), atoi("+42"), atoi("x"));
    // Beyond int: the long wraps to int; beyond long (19 digits and more): strtol saturates first.
    printf("%d %d\n", atoi("4294967338"), atoi("-2147483649"));
    printf("%d %d %d\n", atoi("9223372036854775807"), atoi("9223372036854775808"), atoi("99999999999999999999999"));
    printf("%d %d %d\n", atoi("-9223372036854775807"), atoi("-9223372036854775808"), atoi("-9223372036854775809"));
    printf("%d %d %d\n", atoi("\t\n\v\f\r 7"), atoi("- 5"), atoi("+-5"));
    return 0;
}
