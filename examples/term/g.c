// [B] Fig. 1/2: terminates only because the unsigned j wraps to 0.  Expected: YES (--math-int: MAYBE).
extern unsigned int __VERIFIER_nondet_uint(void);
void g(unsigned int j) { while (j > 0) j++; }
int main(void) { g(__VERIFIER_nondet_uint()); return 0; }
