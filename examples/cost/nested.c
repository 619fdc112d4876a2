// A triangular double loop: WORST_CASE(?, O(n^2)).
void nested(unsigned int n) {
  for (unsigned int i = 0; i < n; i++)
    for (unsigned int k = 0; k < i; k++) {
    }
}
