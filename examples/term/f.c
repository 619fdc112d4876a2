// [B] Fig. 1: does not terminate for x = UINT_MAX (j <= x always holds).  Expected: NO (--math-int: wrongly YES).
extern unsigned int __VERIFIER_nondet_uint(void);
void f(unsigned int x) { unsigned int j = 0; while (j <= x) j++; }
int main(void) { f(__VERIFIER_nondet_uint()); return 0; }
