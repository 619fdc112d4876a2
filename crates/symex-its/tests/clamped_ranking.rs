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
//! With the rule switched off the first attempt finds no bound.
mod common;

use std::time::{Duration, Instant};
use symex_its::clamped_ranking;
use symex_its::complexity::{self, Complexity};
use symex_its::termination::Limits;

fn limits() -> Limits {
    Limits {
        query_timeout: Duration::from_secs(10),
        deadline: Instant::now() + common::BACKSTOP,
    }
}

/// The first attempt's bound (no refinement) for `src`, preprocessed, with the rule in force
/// or switched off; and the ITS as written.
fn first_attempt(src: &str, rule: bool) -> (symex_its::Its, Result<Complexity, String>) {
    let its = symex_its::parse_koat(src).unwrap();
    let pre = symex_its::preprocess::preprocess(&its, Duration::from_secs(10));
    let _off = (!rule).then(clamped_ranking::switched_off);
    let c = complexity::infer(&pre, &limits());
    (its, c)
}

fn uses_the_rule(c: &Complexity) -> bool {
    c.proof.iter().flat_map(|p| &p.steps).any(|s| s.clamped)
}

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
    let (its, c) = first_attempt(MERGESORT, true);
    let c = c.unwrap_or_else(|e| panic!("no bound for the chunk loop: {e}"));
    assert!(uses_the_rule(&c), "no step ranked by a positive part");
    // P, M, V, Q, R are set before they are read: N alone decides a run.
    let starts: Vec<Vec<i128>> = (-3..=20).map(|n| vec![n, 0, 0, 0, 0, 0]).collect();
    assert_eq!(common::check_worst_case(&its, &c, &starts, 0), 189);
    let (_, off) = first_attempt(MERGESORT, false);
    assert!(off.is_err(), "bounded without the rule: {off:?}");
}

/// pasta's a.10: `B` counts up to `A`, or `A` up to `B`, at one location. Each loop raises the
/// other's linear ranking function, but it leaves it at most 0 (its own guard: after
/// `A := A + 1` under `B ≥ A + 1`, `A − B ≤ 0`): `max(A − B, 0)` ranks the first loop, then
/// `B − A` the second. Without the rule only the unfolding by the last transition bounds it.
/// Worst case by hand: the entry and `|A − B|` laps, checked exhaustively on `[−8, 8]²`.
const EXCLUSIVE: &str = "(GOAL COMPLEXITY)\n\
(STARTTERM (FUNCTIONSYMBOLS l0))\n\
(VAR A B)\n\
(RULES\n\
  l0(A,B) -> l1(A,B)\n\
  l1(A,B) -> l1(A,B + 1) :|: A >= B + 1\n\
  l1(A,B) -> l1(A + 1,B) :|: B >= A + 1\n\
)\n";

#[test]
fn loops_that_exclude_each_other_are_ranked_by_the_positive_part() {
    common::count_not_time();
    let (its, c) = first_attempt(EXCLUSIVE, true);
    let c = c.unwrap_or_else(|e| panic!("no bound for a.10: {e}"));
    assert!(uses_the_rule(&c), "no step ranked by a positive part");
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n)"));
    let r = -8..=8;
    let starts: Vec<Vec<i128>> = r
        .clone()
        .flat_map(|a| r.clone().map(move |b| vec![a, b]))
        .collect();
    for s in &starts {
        let mut memo = std::collections::HashMap::new();
        let worst = common::worst_cost(&its, its.start, s, 0, 100, &mut memo).unwrap();
        assert_eq!(worst, 1 + (s[0] - s[1]).abs(), "from {s:?}");
    }
    assert_eq!(common::check_worst_case(&its, &c, &starts, 0), 17);
    let (_, off) = first_attempt(EXCLUSIVE, false);
    assert!(off.is_err(), "bounded without the rule: {off:?}");
}
