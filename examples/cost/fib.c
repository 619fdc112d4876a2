// A branching recursion: each call makes two inner calls, so a run is a tree of about
// fib(n) frames — exponential in n, which no polynomial bounds.
// symex cost fib.c: MAYBE (a transition calls its own SCC more than once).
unsigned int fib(unsigned int n) {
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}

unsigned int first(unsigned int n) { return fib(n); }
