// [B] Fig. 9: counts down to 0.  Expected: YES.
extern unsigned int __VERIFIER_nondet_uint(void);
void h(unsigned int j) { while (j > 0) j--; }
int main(void) { h(__VERIFIER_nondet_uint()); return 0; }
