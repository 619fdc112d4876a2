// The sum may overflow (undefined behaviour for int): such runs end at the overflow, as
// `symex replay --check-overflow` ends them, and the bound counts them up to it.
// symex cost sum.c: WORST_CASE(?, O(n^1)).
int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s = s + i;
  return s;
}
