// Mutual recursion: `is_even` and `is_odd` call each other with n − 1 until n is 0.
// symex cost parity.c: WORST_CASE(?, O(n^1)).
int is_odd(unsigned int n);

int is_even(unsigned int n) {
  if (n == 0)
    return 1;
  return is_odd(n - 1);
}

int is_odd(unsigned int n) {
  if (n == 0)
    return 0;
  return is_even(n - 1);
}

int parity(unsigned int n) { return is_even(n) + 2 * is_odd(n); }
