// No `main`: `symex term` analyses the only function nothing calls (`count`), as `symex cost`
// does; `step` is called, so it is not a candidate.  Expected: YES, and every input ends natively.
static unsigned char step(unsigned char i) { return i + 1; }
void count(unsigned char n) {
  for (unsigned char i = 0; i < n; i = step(i))
    ;
}
