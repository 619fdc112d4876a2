//! Hash-consed terms: the language every analysis speaks to the solver.
