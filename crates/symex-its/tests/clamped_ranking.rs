//! Ranking functions of the positive part `max(f, 0)` (`clamped_ranking.rs`).
//!
//! Flores-Montoya's `sipmamergesort` in small: an outer loop doubles the chunk width `P` from 1
//! while `2·P < N`; each lap walks over the array in chunks of `2·P` from `M := N`, merging two
//! runs `Q` and `R` and draining what is left. A full chunk sets `V := M − 2·P` and goes on with
//! `M := V` while `V ≥ 1`; a last chunk sets `V := 0` — also on the first lap, where `M = N` may
//! be negative. `f = M − 1` at the chunk loop's head and `V` after it never rises but on that
//! last chunk, which sets it to 0: no linear function ranks the chunk loop, `max(f, 0)` does.
//!
//! The bound of the first attempt (no refinement) must cover the longest run from every start
//! with `N` in −3..=20 (exhaustive search over the ITS's own semantics, every choice of the
//! merge), and those worst cases are the ones of a brute force written apart from symex
//! (Python, the same rules: 5 steps for `N ≤ 0`, 6, 7, 20, 22, 42, …, 189 for `N = 20`).
mod common;

use std::time::{Duration, Instant};

const MERGESORT: &str = "(GOAL COMPLEXITY)\n\
(STARTTERM (FUNCTIONSYMBOLS start))\n\
(VAR N P M V Q R)\n\
(RULES\n\
  start(N,P,M,V,Q,R) -> outer(N,1,M,V,Q,R)\n\
  outer(N,P,M,V,Q,R) -> chunk(N,P,N,V,Q,R)\n\
  chunk(N,P,M,V,Q,R) -> merge(N,P,M,M - 2*P,P,P) :|: M >= 2*P\n\
  chunk(N,P,M,V,Q,R) -> merge(N,P,M,0,P,M - P) :|: M >= P && 2*P >= M + 1\n\
  chunk(N,P,M,V,Q,R) -> merge(N,P,M,0,M,0) :|: P >= M + 1\n\
  merge(N,P,M,V,Q,R) -> merge(N,P,M,V,Q - 1,R) :|: Q >= 1 && R >= 1\n\
  merge(N,P,M,V,Q,R) -> merge(N,P,M,V,Q,R - 1) :|: Q >= 1 && R >= 1\n\
  merge(N,P,M,V,Q,R) -> rest(N,P,M,V,Q,R) :|: 0 >= Q\n\
  merge(N,P,M,V,Q,R) -> rest(N,P,M,V,Q,R) :|: 0 >= R\n\
  rest(N,P,M,V,Q,R) -> rest(N,P,M,V,Q - 1,R) :|: Q >= 1\n\
  rest(N,P,M,V,Q,R) -> rest(N,P,M,V,Q,R - 1) :|: R >= 1\n\
  rest(N,P,M,V,Q,R) -> next(N,P,M,V,Q,R) :|: 0 >= Q && 0 >= R\n\
  next(N,P,M,V,Q,R) -> chunk(N,P,V,V,Q,R) :|: V >= 1\n\
  next(N,P,M,V,Q,R) -> outer(N,2*P,M,V,Q,R) :|: 0 >= V && N >= 2*P + 1\n\
)\n";

#[test]
fn a_last_chunk_reset_to_zero_is_ranked_by_the_positive_part() {
    common::count_not_time();
    let its = symex_its::parse_koat(MERGESORT).unwrap();
    let pre = symex_its::preprocess::preprocess(&its, Duration::from_secs(10));
    let limits = symex_its::termination::Limits {
        query_timeout: Duration::from_secs(10),
        deadline: Instant::now() + common::BACKSTOP,
    };
    let c = symex_its::complexity::infer(&pre, &limits)
        .unwrap_or_else(|e| panic!("no bound for the chunk loop: {e}"));
    assert!(
        c.proof.iter().flat_map(|p| &p.steps).any(|s| s.clamped),
        "no step ranked by a positive part"
    );
    // P, M, V, Q, R are set before they are read: N alone decides a run.
    let starts: Vec<Vec<i128>> = (-3..=20).map(|n| vec![n, 0, 0, 0, 0, 0]).collect();
    assert_eq!(common::check_worst_case(&its, &c, &starts, 0), 189);
}
