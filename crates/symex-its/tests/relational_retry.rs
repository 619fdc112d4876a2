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
//!
//! The retry reuses the first attempt's termination proof: the relational invariants only
//! strengthen guards, so that proof still holds, and proving again costs queries (on T2's
//! `svdcmp`, queries a resource limit cut). With the reuse the bound comes from the ranking
//! functions of the first attempt and the whole search asks fewer queries than with the proof
//! proved again.
mod common;

use std::time::{Duration, Instant};
use symex_its::complexity;
use symex_its::termination::{self, Limits, Termination};

fn limits() -> Limits {
    Limits {
        query_timeout: Duration::from_secs(10),
        deadline: Instant::now() + common::BACKSTOP,
    }
}

/// The bound of the refining search on `pre` (no refinement but the retry), with the queries
/// it asked.
fn search(pre: &symex_its::Its) -> (complexity::Complexity, u64) {
    let asked = symex_its::smt::queries();
    let (_, c) = common::infer_preprocessed(pre);
    let c = c.unwrap_or_else(|e| panic!("no bound for the svdcmp-shaped loops: {e}"));
    (c, symex_its::smt::queries() - asked)
}

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

#[test]
fn the_retry_reuses_the_first_attempts_termination_proof() {
    std::env::set_var("ITS_REFINE", "none");
    common::count_not_time();
    let pre = symex_its::parse_koat(SVDCMP_SHAPE).unwrap();
    let pre = symex_its::preprocess::preprocess(&pre, Duration::from_secs(10));
    let asked = symex_its::smt::queries();
    let Termination::Yes(first) = termination::prove(&pre, &limits()) else {
        panic!("the first attempt proves termination");
    };
    let proving = symex_its::smt::queries() - asked;
    let (reused, with_reuse) = search(&pre);
    let (fresh, without) = {
        let _fresh = complexity::proof_not_reused();
        search(&pre)
    };
    // The retry's bound is the one offered; its proof is the first attempt's, step by step.
    let functions = |p: &[termination::SccProof]| -> Vec<String> {
        p.iter()
            .flat_map(|s| &s.steps)
            .map(|s| format!("{:?} {:?}", s.function, s.removed))
            .collect()
    };
    assert_eq!(functions(&reused.proof), functions(&first));
    // Proving again asks the termination proof's queries once more (on stronger guards).
    assert!(
        with_reuse + proving / 2 <= without,
        "{with_reuse} queries with the reuse, {without} without, {proving} for the proof"
    );
    for c in [&reused, &fresh] {
        assert!(
            c.bound.is_polynomial(),
            "bound {}",
            c.bound.display(&pre.vars)
        );
    }
}
