//! The retries after a first polynomial bound (refinements: partial evaluation, unfolding, …)
//! get a count of solver queries, so that the degree found does not depend on the load. The
//! count must leave a refinement the work it needs: `symex its` bounds Loopus' `Example1`
//! (Brockschmidt et al.'s c-examples) by `O(n²)` in its first attempt and by `O(n)` only after
//! the partial evaluation of its two nested loops, which asks about 1 500 queries (with twice
//! the first attempt's 75 plus 1 000 the inference on the refined system was cut, and the bound
//! stayed `O(n²)`). The refined system must have the runs of the original and its bound must
//! cover them: the costliest run from every start of a grid (exhaustive search over each
//! system's own semantics) is the one found by brute force.
use std::time::{Duration, Instant};
use symex_its::{complexity, graph, parse_koat, preprocess, smt, termination};

mod common;

/// The inner loop runs `D` from `A + 1` towards `B`, nondeterministically stopping early, and
/// the outer loop continues from `D − 1` (or `D` when the inner loop did not run): both loops
/// together advance `A` to `B`, so the runs are linear in `B`.
const EXAMPLE1: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS evalfstart))\n\
(VAR A B C D E)\n(RULES\n\
  evalfstart(A,B,C,D) -> Com_1(evalfentryin(A,B,C,D))\n\
  evalfentryin(A,B,C,D) -> Com_1(evalfbb6in(0,B,C,D))\n\
  evalfbb6in(A,B,C,D) -> Com_1(evalfbbin(A,B,C,D)) :|: B >= A + 1\n\
  evalfbb6in(A,B,C,D) -> Com_1(evalfreturnin(A,B,C,D)) :|: A >= B\n\
  evalfbbin(A,B,C,D) -> Com_1(evalfbb2in(A,B,0,A + 1))\n\
  evalfbb2in(A,B,C,D) -> Com_1(evalfbb4in(A,B,C,D)) :|: D >= B\n\
  evalfbb2in(A,B,C,D) -> Com_1(evalfbb3in(A,B,C,D)) :|: B >= D + 1\n\
  evalfbb3in(A,B,C,D) -> Com_1(evalfbb1in(A,B,C,D)) :|: 0 >= E + 1\n\
  evalfbb3in(A,B,C,D) -> Com_1(evalfbb1in(A,B,C,D)) :|: E >= 1\n\
  evalfbb3in(A,B,C,D) -> Com_1(evalfbb4in(A,B,C,D))\n\
  evalfbb1in(A,B,C,D) -> Com_1(evalfbb2in(A,B,C + 1,D + 1))\n\
  evalfbb4in(A,B,C,D) -> Com_1(evalfbb6in(D - 1,B,C,D)) :|: C >= 1\n\
  evalfbb4in(A,B,C,D) -> Com_1(evalfbb6in(D,B,C,D)) :|: 0 >= C\n\
  evalfreturnin(A,B,C,D) -> Com_1(evalfstop(A,B,C,D))\n)\n";

/// Every `B` in `[−3, 12]`; the other variables are reset before they are read.
fn grid() -> Vec<Vec<i128>> {
    (-3..=12i128).map(|b| vec![0, b, 0, 0]).collect()
}

/// The costliest run from `B`: `8·B − 1` steps for `B ≥ 2` (one inner lap per outer lap: eight
/// rules per unit of `A`, one fewer at the end), 8 for `B = 1`, 4 for `B ≤ 0`, by a brute-force
/// search over all paths written apart from symex (Python, the rules as in the file).
fn worst(b: i128) -> i128 {
    match b {
        ..=0 => 4,
        1 => 8,
        _ => 8 * b - 1,
    }
}

/// The costliest run of `its` from `start` (temporaries in `[−1, 1]`: every branch of `E`).
fn costliest(its: &symex_its::Its, start: &[i128]) -> i128 {
    let mut memo = std::collections::HashMap::new();
    common::worst_cost(its, its.start, start, 1, 400, &mut memo).expect("a short run")
}

#[test]
fn partial_evaluation_after_a_polynomial_first_bound_fits_in_the_retry_budget() {
    common::count_not_time();
    let its = parse_koat(EXAMPLE1).unwrap();
    let pre = preprocess::preprocess(&its, Duration::from_secs(10));
    let limits = termination::Limits {
        query_timeout: Duration::from_secs(10),
        deadline: Instant::now() + common::BACKSTOP,
    };
    let _counted = termination::count_retries();
    let asked = smt::queries();
    let first = complexity::infer(&pre, &limits).expect("a first bound");
    assert!(first.bound.is_polynomial());
    let first_queries = smt::queries() - asked;
    // The retry's targets after a polynomial bound: every cyclic SCC.
    let all: Vec<usize> = (0..pre.transitions.len()).collect();
    let cyclic: Vec<Vec<usize>> = graph::sccs(&pre, &all)
        .into_iter()
        .filter(|locs| !graph::inside(&pre, &all, locs).is_empty())
        .collect();
    // The refinement and the inference on it share the retry's budget.
    let (refined, bound) = {
        let budget = complexity::refinement_budget(first_queries);
        assert!(budget.is_some(), "the retries are counted");
        let refined = preprocess::refine_by_partial_evaluation(
            &pre,
            &cyclic,
            limits.query_timeout,
            limits.deadline,
        )
        .expect("a partial evaluation");
        let bound = complexity::infer(&refined, &limits);
        (refined, bound)
    };
    assert!(
        refined.locations.len() > pre.locations.len(),
        "versions of the loop heads"
    );
    let bound = bound.expect("a bound of the refined system within the retry budget");
    assert!(bound.bound.is_polynomial());
    assert_eq!(
        common::check_worst_case(&its, &bound, &grid(), 1),
        worst(12)
    );
    for start in grid() {
        let b = start[1];
        assert_eq!(
            costliest(&its, &start),
            worst(b),
            "the original from B = {b}"
        );
        assert_eq!(
            costliest(&refined, &start),
            worst(b),
            "the refined from B = {b}"
        );
    }
}
