// [B] Fig. 1/2: terminates only because the unsigned j wraps to 0.
// symex cost g.c: WORST_CASE(?, O(n^1)) with the type's maximum as a size variable b_umax32.
void g(unsigned int j) { while (j > 0) j++; }
