//! Sizes under turning updates (`symex_its::periodic_size`): `B' = 3B + 2C, C' = −5B − 3C`
//! (`M² = −I`) keeps `|B| + |C|` within 8 times its entry value, so the loops after it
//! get polynomial bounds; checked against the interpreter's runs.
mod common;

use symex_its::complexity::Complexity;
use symex_its::{parse_koat, Its};

fn analyse(src: &str) -> (Its, Result<Complexity, String>) {
    let its = parse_koat(src).unwrap();
    let (_, c) = common::infer_refining(&its);
    (its, c)
}

/// Runs from random starts in `-r..=r` and in `0..=10·r` (where the loops run longest).
fn check_runs(its: &Its, c: &Complexity, r: i128, runs: u64) -> usize {
    let mut starts = common::random_starts(11, its.arity(), r, runs);
    for (k, (_, s)) in starts.iter_mut().enumerate() {
        if k % 2 == 1 {
            for x in s.iter_mut() {
                *x = 10 * x.abs();
            }
        }
    }
    common::bound_holds_on_runs(its, c, starts, "periodic")
}

#[test]
fn turning_pair_keeps_a_polynomial_size() {
    common::count_not_time();
    // The outer loop runs E times; each round sets B = 2E, C = 3E and turns (B, C) A times,
    // then counts B down. From A = 2, B = 1, C = 0, E = 0: (1,0) → (3,−5) → (−1,0), then
    // no countdown: cost 1 + 2 + 1 = 4.
    let src = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR A B C E)\n(RULES\n  l0(A,B,C,E) -> l1(A,B,C,E)\n  l1(A,B,C,E) -> l1(A - 1,3*B + 2*C,-5*B - 3*C,E) :|: A > 0\n  l1(A,B,C,E) -> l2(A,B,C,E)\n  l2(A,B,C,E) -> l2(A,B - 1,C,E) :|: B > 0\n  l2(A,B,C,E) -> l1(E,2*E,3*E,E - 1) :|: E > 0\n)\n";
    let (its, c) = analyse(src);
    let c = c.unwrap();
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    assert!(c.bound.eval(&[2, 1, 0, 0]).unwrap() >= 4);
    assert!(check_runs(&its, &c, 6, 120) > 100);
}

#[test]
fn lommen_size10_bound_holds_on_runs() {
    common::count_not_time();
    // The countdown `B + D > 0` also lowers B, so its exit size needs the result variable
    // graph's turning cycle.
    let Some(dir) = common::koat_dir() else {
        return;
    };
    let src = std::fs::read_to_string(dir.join("Lommen_23/size10.koat")).unwrap();
    let (its, c) = analyse(&src);
    let c = c.unwrap();
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    assert!(check_runs(&its, &c, 5, 120) > 60);
}
