// Calling through a null function pointer.
int (*handler)(int);
int main(void) { return handler(3); }
