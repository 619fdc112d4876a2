//! A first attempt whose runtime and size bounds wait for each other is retried on the ITS with
//! relational invariants (`complexity/relational_retry.rs`). The system below has the shape of
//! T2's `svdcmp`: `K` is raised only on the way back from `q` to `head` and never reset, so its
//! size needs the runtime bound of that way back, which needs `K`'s size at `head`'s entry from
//! `w`; `T ≥ K`, the loop condition of `head → mid`, holds at `q` too (`mid → q` keeps both),
//! but is a guard atom of no transition there, and `T = A − 1` (`T := A − 1` on `outer → w`) is
//! no candidate of the first invariants at all. With both, `T − K` never increases in the SCC
//! and bounds the way back by the SCC's entries.
//!
//! The refinements are switched off (`ITS_REFINE=none`, this file's only test): partial
//! evaluation bounds this small system on its own, but not `svdcmp`; the sizes per result
//! variable and the last resorts (guard caps, the termination prover's refinement) leave it
//! without a bound. The bound must cover the costliest run from every start of a grid, found
//! by an exhaustive search over the ITS's own semantics.
mod common;

const SVDCMP_SHAPE: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS start))\n\
(VAR A T K H B C)\n(RULES\n\
  start(A,T,K,H,B,C) -> outer(A,T,K,H,B,C)\n\
  outer(A,T,K,H,B,C) -> w(A,A - 1,K,H,B,C) :|: A >= 1\n\
  outer(A,T,K,H,B,C) -> end(A,T,K,H,B,C) :|: 0 >= A\n\
  w(A,T,K,H,B,C) -> w(A,T,K,H,B,C + 1) :|: A >= C\n\
  w(A,T,K,H,B,C) -> head(A,T,K,H,B,C) :|: C >= A + 1\n\
  head(A,T,K,H,B,C) -> mid(A,T,K,H,B,C) :|: T >= K\n\
  mid(A,T,K,H,B,C) -> mid(A,T,K,H + 1,B,C) :|: A >= H\n\
  mid(A,T,K,H,B,C) -> q(A,T,K,H,B,C) :|: H >= A + 1\n\
  q(A,T,K,H,B,C) -> q(A,T,K,H + 1,B,C) :|: B >= H\n\
  q(A,T,K,H,B,C) -> head(A,T,K + 1,H,B,C) :|: H >= B + 1\n\
  head(A,T,K,H,B,C) -> outer(A - 1,T,K,H,B,C) :|: K >= T + 1\n)\n";

#[test]
fn counter_raised_on_the_way_back_is_bounded_with_relational_invariants() {
    std::env::set_var("ITS_REFINE", "none");
    let (its, c) = common::bounded(SVDCMP_SHAPE, "the svdcmp-shaped loops");
    assert!(
        c.bound.is_polynomial(),
        "bound {}",
        c.bound.display(&its.vars)
    );
    let r = -2..=2i128;
    let mut starts = Vec::new();
    for a in 0..=3 {
        for k in r.clone() {
            for h in r.clone() {
                for b in r.clone() {
                    for cc in r.clone() {
                        starts.push(vec![a, 0, k, h, b, cc]);
                    }
                }
            }
        }
    }
    let largest = common::check_worst_case(&its, &c, &starts, 0);
    // 38 steps from A = 3, K = H = C = −2, B = 2, by a brute force written apart (Python).
    assert_eq!(largest, 38);
}
