// No `main` and two functions nothing calls: `symex term` exits 2 naming both and `--entry`.
// Expected with `--entry halve`: YES, and every input ends natively.
void count(unsigned char n) {
  for (unsigned char i = 0; i < n; i++)
    ;
}
void halve(unsigned char x) {
  while (x > 0)
    x = x / 2;
}
