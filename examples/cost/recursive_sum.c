// A linear recursion: each call of `rsum` makes one inner call, and the caller goes on after it
// returns (the addition and the return). A run is a tree — here a path of n + 1 frames — whose
// cost is every frame's instructions before *and after* its inner call.
// symex cost recursive_sum.c: WORST_CASE(?, O(n^1)).
unsigned int rsum(unsigned int n) {
  if (n == 0)
    return 0;
  return n + rsum(n - 1);
}

unsigned int total(unsigned int n) { return rsum(n); }
