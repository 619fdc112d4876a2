// A recursion whose every frame runs a loop over its argument: frames n, n - 1, ..., 0 run
// n + (n - 1) + ... + 0 iterations. symex cost recursive_loops.c: WORST_CASE(?, O(n^2)).
unsigned int work(unsigned int n) {
  unsigned int s = 0;
  for (unsigned int i = 0; i < n; i++)
    s += i;
  if (n == 0)
    return s;
  return s + work(n - 1);
}

unsigned int run(unsigned int n) { return work(n); }
