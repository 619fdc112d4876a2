// Writing into a string literal.
int main(void) {
    char *s = "hello";
    s[0] = 'H';
    return s[0];
}
