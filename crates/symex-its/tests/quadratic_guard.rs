//! Quadratic guards: a loop whose guard value each lap changes by a counter that itself steps by
//! a constant ends after laps linear in the start values when the counts' form is negative
//! definite — checked against the worst case of every run from a grid of starts, explored
//! exhaustively by the test's own search over both transitions ([`common::worst_cost`]).
mod common;

use std::time::{Duration, Instant};
use symex_its::termination::{self, Limits, Termination};
use symex_its::{parse_koat, quadratic_guard};

fn koat(rules: &str) -> String {
    format!(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X Y Z)\n(RULES\n  l0(X,Y,Z) -> l1(X,Y,Z)\n{rules}  l1(X,Y,Z) -> l2(X,Y,Z) :|: 0 >= X + 1\n)\n"
    )
}

/// poly2's shape with other steps: `X += Y, Y −= 2, Z += 1` or `X += Z, Z −= 3` while `X ≥ 0`.
/// `Y + Z` falls on every lap but has no lower bound; no linear function ranks the loop.
const LOOP: &str = "  l1(X,Y,Z) -> l1(X + Y,Y - 2,Z + 1) :|: X >= 0\n  l1(X,Y,Z) -> l1(X + Z,Y,Z - 3) :|: X >= 0\n";

#[test]
fn a_guard_value_with_a_negative_definite_count_form_bounds_the_loop_linearly() {
    let (its, c) = common::bounded(&koat(LOOP), "the quadratic-guard loop");
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n)"));
    let q = c
        .proof
        .iter()
        .flat_map(|p| &p.steps)
        .find_map(|s| s.quadratic_guard.as_ref())
        .expect("proved by a quadratic guard");
    // N = [[−2, 1], [1, −3]]: −m·N − 2·J is PSD from m = 4 (det 5m² − 14m).
    assert_eq!(q.scale, 4);
    let worst = common::check_worst_case(&its, &c, &common::cube(5), 5);
    // From X = Y = Z = 5 the loop runs for some laps: the grid is not trivial.
    assert!(worst >= 12, "the worst case on the grid is only {worst}");
    // Without the rule nothing bounds it (nor proves it terminating).
    let _off = quadratic_guard::switched_off();
    let (_, without) = common::infer_refining(&its);
    assert!(without.is_err(), "bounded without the rule: {without:?}");
}

#[test]
fn counters_that_give_back_what_they_take_are_no_quadratic_guard() {
    // `X += Y, Y −= 1, Z += 1` and `X += Z, Y += 1, Z −= 1`: Y + Z is constant and alternating
    // the two adds Y + Z + 1 per pair of laps — from X = 0, Y = 1, Z = 0 it never ends.
    let src = koat(
        "  l1(X,Y,Z) -> l1(X + Y,Y - 1,Z + 1) :|: X >= 0\n  l1(X,Y,Z) -> l1(X + Z,Y + 1,Z - 1) :|: X >= 0\n",
    );
    common::count_not_time();
    let its = parse_koat(&src).unwrap();
    let mut solver = symex_its::smt::solver(Duration::from_secs(10));
    assert_eq!(
        quadratic_guard::synthesize(&its, &[1, 2], solver.as_mut()),
        None
    );
    let limits = Limits {
        query_timeout: Duration::from_secs(10),
        deadline: Instant::now() + Duration::from_secs(600),
    };
    assert!(matches!(
        termination::prove(&its, &limits),
        Termination::Maybe(..)
    ));
}
