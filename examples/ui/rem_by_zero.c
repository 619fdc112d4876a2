// Unsigned remainder by zero.
unsigned mod(unsigned a, unsigned b) { return a % b; }
int main(void) { return (int)mod(7, 0); }
