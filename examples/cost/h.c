// [B] Fig. 9: counts down to 0.  symex cost h.c: WORST_CASE(?, O(n^1)), bound 4*|j| + 4.
void h(unsigned int j) { while (j > 0) j--; }
