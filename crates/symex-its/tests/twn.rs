//! Runtime bounds of twn loops (`x' = c·x + d`, `symex_its::twn`) from their closed forms
//! (exponential, polynomial in `n`, negative factors, inside larger SCCs): hand-written loops
//! with hand-computed costs, loops that do not stop (no bound may be claimed), and the
//! competition's Lommen files whose bounds use a twn loop, all checked against the
//! interpreter's runs.
mod common;

use symex_its::complexity::Complexity;
use symex_its::interp::Rng;
use symex_its::{parse_koat, Its};

/// Removals by a shrinking ratio (`ratio.rs`): termination proves twn01-like loops so (a quotient
/// `B/A` shrinking by 3/2 per lap) before the twn closed forms are tried, with the same O(n).
fn ratio_removals(c: &Complexity) -> usize {
    c.proof
        .iter()
        .flat_map(|p| &p.steps)
        .filter(|s| s.ratio.is_some())
        .count()
}

fn analyse(src: &str) -> (Its, Result<Complexity, String>) {
    let (its, _, c) = analyse_refined(src);
    (its, c)
}

/// The parsed ITS, the one the bounds refer to (preprocessed and maybe refined), and its
/// bounds.
fn analyse_refined(src: &str) -> (Its, Its, Result<Complexity, String>) {
    common::count_not_time();
    let its = parse_koat(src).unwrap();
    // Queries end by Z3's step count (`count_not_time`); the deadline is only a backstop.
    let (refined, c) = common::infer_refining(&its);
    (its, refined, c)
}

/// Runs the ITS the bounds refer to (where chaining kept a dead end beside a bypassed
/// location, many runs stop early: hence many runs) from random starts in `-r..=r` and checks each twn
/// loop's claim directly: every stretch of consecutive steps of its transitions has at
/// most `bound(|x|)` steps, `x` the values where the stretch starts. Returns the stretches
/// with at least one step.
fn check_loops_on_runs(its: &Its, c: &Complexity, r: i128, runs: u64) -> usize {
    use symex_its::interp::{Interpreter, RunConfig, RunEnd};
    let mut stretches = 0;
    for (seed, start) in common::random_starts(5, its.arity(), r, runs) {
        let cfg = RunConfig {
            seed,
            max_steps: 5_000,
            tries: 20,
            record: true,
            ..RunConfig::default()
        };
        let run = Interpreter::new(its).run(&start, &cfg);
        if matches!(run.end, RunEnd::Overflow | RunEnd::Unknown) {
            continue;
        }
        for l in &c.twn {
            let mut i = 0;
            while i < run.taken.len() {
                if !l.transitions.contains(&run.taken[i]) {
                    i += 1;
                    continue;
                }
                let x: Vec<i128> = run.trace[i].1.iter().map(|v| v.abs()).collect();
                let mut n = 0;
                while i < run.taken.len() && l.transitions.contains(&run.taken[i]) {
                    n += 1;
                    i += 1;
                }
                let Some(bound) = l.bound.eval(&x) else {
                    continue;
                };
                assert!(
                    n <= bound,
                    "{n} iterations > bound {bound} from {x:?} ({l:?})"
                );
                stretches += 1;
            }
        }
    }
    stretches
}

fn koat(rules: &str, vars: &str) -> String {
    format!(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR {vars})\n(RULES\n{rules}\n)\n"
    )
}

/// Runs from random start values in `-r..=r` (and `1..=r` scaled by 10, where the loops
/// run longest); no run may cost more than the bound. Returns the runs checked.
fn check_runs(its: &Its, c: &Complexity, r: i128, runs: u64) -> usize {
    let mut rng = Rng::new(3);
    let starts = (0..runs)
        .map(|seed| {
            let start = (0..its.arity())
                .map(|_| {
                    if seed % 2 == 0 {
                        rng.range(-r, r)
                    } else {
                        10 * rng.range(1, r)
                    }
                })
                .collect();
            (seed, start)
        })
        .collect();
    common::bound_holds_on_runs(its, c, starts, "twn")
}

#[test]
fn faster_growth_overtakes_the_bound() {
    // Lommen's twn01: A' = 3A, B' = 2B while 0 < A < B. From A = 1, B = 10 the pairs
    // are (1,10), (3,20), (9,40), (27,80), (81,160), (243,320), (729,640): 6 iterations,
    // plus the entry: cost 7.
    let (its, c) = analyse(&koat(
        "  l0(A,B) -> l1(A,B) :|: A > 0\n  l1(A,B) -> l1(3 * A,2 * B) :|: A < B\n",
        "A B",
    ));
    let c = c.unwrap();
    assert_eq!(c.twn.len() + ratio_removals(&c), 1);
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n)"));
    assert!(c.bound.eval(&[1, 10]).unwrap() >= 7);
    assert!(check_runs(&its, &c, 9, 80) > 60);
}

#[test]
fn equal_growth_does_not_stop() {
    // A' = 2A, B' = 2B keeps 0 < A < B forever: no twn bound may be claimed.
    let (_, c) = analyse(&koat(
        "  l0(A,B) -> l1(A,B) :|: A > 0\n  l1(A,B) -> l1(2 * A,2 * B) :|: A < B\n",
        "A B",
    ));
    assert!(c.is_err(), "{:?}", c.map(|c| c.bound));
}

#[test]
fn polynomial_closed_form_bounds_a_cubic_loop() {
    // Lommen's twn13 shape: A' = A + B²·C, B' = B − 2C², C' = C while A + B² > 0, C < 0.
    // From A = 5, B = 1, C = −1: (5,1) → (4,−1) → (3,−3) → (−6,−5): A + B² = 6, 5, 12, 19,
    // (−31,−7): 18, (−80,−9): 1, (−161,−11): −40: 6 iterations, plus the entry: cost 7.
    let (its, c) = analyse(&koat(
        "  l0(A,B,C) -> l1(A,B,C) :|: C < 0\n  l1(A,B,C) -> l1(A + B^2*C,B - 2*C^2,C) :|: A + B^2 > 0\n",
        "A B C",
    ));
    let c = c.unwrap();
    assert_eq!(c.twn.len(), 1);
    assert!(c.bound.is_polynomial());
    assert!(c.bound.eval(&[5, 1, -1]).unwrap() >= 7);
    assert!(check_runs(&its, &c, 6, 80) > 60);
    let (_, refined, c) = analyse_refined(&koat(
        "  l0(A,B,C) -> l1(A,B,C) :|: C < 0\n  l1(A,B,C) -> l1(A + B^2*C,B - 2*C^2,C) :|: A + B^2 > 0\n",
        "A B C",
    ));
    assert!(check_loops_on_runs(&refined, &c.unwrap(), 6, 400) > 20);
}

#[test]
fn negative_factor_alternates() {
    // A' = 10 − 2A while A ≥ 0: 0 → 10 → −10 (2 iterations), 3 → 4 → 2 → 6 → −2 (4),
    // 5 → 0 → 10 → −10 (3); A ≥ 6 at most one. Unrolled: A'' = 4A − 10.
    let (its, c) = analyse(&koat(
        "  l0(A,B) -> l1(A,B)\n  l1(A,B) -> l1(10 - 2*A,B*B) :|: A >= 0\n",
        "A B",
    ));
    let c = c.unwrap();
    assert_eq!(c.twn.len(), 1);
    for (a, cost) in [(0, 3), (3, 5), (4, 4), (5, 4), (100, 2)] {
        assert!(c.bound.eval(&[a, 0]).unwrap() >= cost, "A = {a}");
    }
    assert!(check_runs(&its, &c, 9, 80) > 60);
    let (_, refined, c) = analyse_refined(&koat(
        "  l0(A,B) -> l1(A,B)\n  l1(A,B) -> l1(10 - 2*A,B*B) :|: A >= 0\n",
        "A B",
    ));
    assert!(check_loops_on_runs(&refined, &c.unwrap(), 9, 400) > 20);
    // The same with the new value a temporary the guard fixes (FGPSF09's complete2).
    let (its, c) = analyse(&koat(
        "  l0(A,B) -> l1(A,B)\n  l1(A,B) -> l1(T,B*B) :|: A >= 0 && T + 2*A >= 10 && 10 >= 2*A + T\n",
        "A B T",
    ));
    let c = c.unwrap();
    assert_eq!(c.twn.len(), 1);
    for (a, cost) in [(0, 3), (3, 5), (4, 4), (5, 4), (100, 2)] {
        assert!(c.bound.eval(&[a, 0]).unwrap() >= cost, "A = {a}");
    }
    assert!(check_runs(&its, &c, 9, 80) > 60);
    // A' = −A while A² > 0 never stops: no bound.
    let (_, c) = analyse(&koat(
        "  l0(A,B) -> l1(A,B)\n  l1(A,B) -> l1(-A,B*B) :|: A*A > 0\n",
        "A B",
    ));
    assert!(c.is_err(), "{:?}", c.map(|c| c.bound));
}

#[test]
fn twn_loop_inside_an_outer_loop() {
    // The outer loop runs C times; each round resets A = 1, B = D and runs the twn loop
    // A' = 3A, B' = 2B while A < B. C = 2, D = 5: 3^n < 2^n·5 for n = 0..3, so 4 inner
    // iterations per round: cost 1 + 2·(1 + 4 + 1) = 13 when the inner loop runs fully.
    let (its, c) = analyse(&koat(
        "  l0(A,B,C,D) -> l1(A,D,C,D)\n  l1(A,B,C,D) -> l2(1,B,C,D) :|: C > 0\n  l2(A,B,C,D) -> l2(3*A,2*B,C,D) :|: A < B\n  l2(A,B,C,D) -> l1(A,D,C - 1,D)\n",
        "A B C D",
    ));
    let c = c.unwrap();
    assert_eq!(c.twn.len() + ratio_removals(&c), 1);
    assert!(c.bound.is_polynomial());
    assert!(c.bound.eval(&[0, 0, 2, 5]).unwrap() >= 13);
    assert!(check_runs(&its, &c, 9, 80) > 60);
    if c.twn.is_empty() {
        return;
    }
    let (_, refined, c) = analyse_refined(&koat(
        "  l0(A,B,C,D) -> l1(A,D,C,D)\n  l1(A,B,C,D) -> l2(1,B,C,D) :|: C > 0\n  l2(A,B,C,D) -> l2(3*A,2*B,C,D) :|: A < B\n  l2(A,B,C,D) -> l1(A,D,C - 1,D)\n",
        "A B C D",
    ));
    let stretches = check_loops_on_runs(&refined, &c.unwrap(), 9, 400);
    assert!(stretches > 10, "{stretches}");
}

#[test]
fn lommen_twn_bounds_hold_on_runs() {
    // The files of Lommen_22/24 with exponential twn loops (the whole folders take half a
    // minute on a loaded machine).
    check_lommen(
        &[
            "Lommen_22/twn01",
            "Lommen_22/twn02",
            "Lommen_22/twn08",
            "Lommen_22/twn20",
            "Lommen_24/non_linear02",
            "Lommen_24/non_linear03",
            "Lommen_24/non_linear04",
            "Lommen_24/non_linear13",
            "Lommen_24/non_linear16",
            "Lommen_24/non_linear17",
        ],
        7,
    );
}

#[test]
fn lommen_polynomial_negative_and_inner_twn_bounds_hold_on_runs() {
    // Closed forms polynomial in n (twn13, size05/06/08/15), negative factors (twn19,
    // non_linear01; FGPSF09's complete2, whose temporary the guard fixes), twn loops
    // inside larger SCCs (twn04/05/09/14/15/17, non_linear09/21).
    check_lommen(
        &[
            "VMCAI04/complete2",
            "Lommen_22/twn04",
            "Lommen_22/twn05",
            "Lommen_22/twn09",
            "Lommen_22/twn13",
            "Lommen_22/twn14",
            "Lommen_22/twn15",
            "Lommen_22/twn17",
            "Lommen_22/twn19",
            "Lommen_23/size05",
            "Lommen_23/size06",
            "Lommen_23/size08",
            "Lommen_23/size15",
            "Lommen_24/non_linear01",
            "Lommen_24/non_linear09",
            "Lommen_24/non_linear21",
        ],
        14,
    );
}

#[test]
fn twn_after_a_change_of_variables() {
    // Lommen's non_linear05: X1' = 4X1 − X2, X2' = 2X1 + X2 is twn in p = X1 − X2 (doubles)
    // and q = X2 − 2X1 (triples); the guard 3X1 < 2X2 ∧ X2 < 2X1 is q < 0 ∧ p < q. From
    // X1 = 101, X2 = 201 (p = −100, q = −1) it holds while 1.5^n < 100: n = 0..11, twelve
    // iterations, plus the entry: cost 13.
    let src = koat(
        "  l0(X1,X2) -> l1(X1,X2)\n  l1(X1,X2) -> l1(4*X1 - X2,2*X1 + X2) :|: 3*X1 < 2*X2 && X2 < 2*X1\n",
        "X1 X2",
    );
    let (its, refined, c) = analyse_refined(&src);
    let c = c.unwrap();
    assert_eq!(c.twn.len(), 1);
    assert!(!c.twn[0].change.is_empty());
    assert!(c.bound.is_polynomial());
    assert!(c.bound.eval(&[101, 201]).unwrap() >= 13);
    assert!(check_runs(&its, &c, 9, 80) > 60);
    // The guard's cone is narrow: few random starts enter it.
    let stretches = check_loops_on_runs(&refined, &c, 9, 2000);
    assert!(stretches > 10, "{stretches}");
    // Y1 + 2·Y2 doubles while Y1 squares: only the form the guard uses is twn.
    let src = koat(
        "  l0(Y1,Y2,X3) -> l1(Y1,Y2,X3)\n  l1(Y1,Y2,X3) -> l1(2*Y1^2 + 2*Y1,-Y1^2 + 2*Y2,4*X3) :|: X3 < Y1 + 2*Y2 && X3 > 0\n",
        "Y1 Y2 X3",
    );
    let (its, refined, c) = analyse_refined(&src);
    let c = c.unwrap();
    assert_eq!(c.twn.len(), 1);
    assert!(check_runs(&its, &c, 9, 80) > 60);
    assert!(check_loops_on_runs(&refined, &c, 9, 400) > 20);
}

#[test]
fn turning_loop_stops_within_three_steps() {
    // Lommen's twn18: B' = 3B − 4C, C' = 4B − 3C turns (M² = −7·I) while B² > 1 and
    // A·(C + 2) > 0: the signs of C flip every two steps, and four steps in a row are
    // impossible (few_steps). From A = 1, B = 2, C = −1: C = −1, 11, 7 pass, then −77:
    // three iterations, plus the entry: cost 4, the bound.
    let src = koat(
        "  l0(A,B,C) -> l1(A,B,C)\n  l1(A,B,C) -> l1(A,3*B - 4*C,4*B - 3*C) :|: B^2 > 1 && A*C + 2*A > 0\n",
        "A B C",
    );
    let (its, refined, c) = analyse_refined(&src);
    let c = c.unwrap();
    assert_eq!(c.twn.len(), 1);
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(1)"));
    assert_eq!(c.bound.eval(&[1, 2, -1]), Some(4));
    assert!(check_runs(&its, &c, 9, 80) > 60);
    assert!(check_loops_on_runs(&refined, &c, 9, 400) > 20);
}

#[test]
fn turning_loops_unrolled_twice() {
    // A quarter turn X' = −Y, Y' = X (eigenvalues ±i) while Z doubles: X² + Y² > Z > 0.
    // Unrolled twice, X'' = −X, Y'' = −Y, Z'' = 4Z is twn. From X = 9, Y = 0, Z = 1:
    // 81 > 1, 2, 4, …, 64: seven iterations, plus the entry: cost 8.
    let src = koat(
        "  l0(X,Y,Z) -> l1(X,Y,Z)\n  l1(X,Y,Z) -> l1(-Y,X,2*Z) :|: X*X + Y*Y > Z && Z > 0\n",
        "X Y Z",
    );
    let (its, refined, c) = analyse_refined(&src);
    let c = c.unwrap();
    assert_eq!(c.twn.len(), 1);
    assert!(c.twn[0].unrolled);
    assert!(c.bound.eval(&[9, 0, 1]).unwrap() >= 8);
    assert!(check_runs(&its, &c, 9, 80) > 60);
    assert!(check_loops_on_runs(&refined, &c, 9, 400) > 20);
    // The quarter turn alone keeps X² + Y² > 0 forever: no bound.
    let (_, c) = analyse(&koat(
        "  l0(X,Y) -> l1(X,Y)\n  l1(X,Y) -> l1(-Y,X) :|: X*X + Y*Y > 0\n",
        "X Y",
    ));
    assert!(c.is_err(), "{:?}", c.map(|c| c.bound));
}

#[test]
fn lommen_changed_variables_bounds_hold_on_runs() {
    // Twn only after a linear change of variables (non_linear05–08, 14); loops of at most
    // three steps per entry (twn06, twn18).
    check_lommen(
        &[
            "Lommen_22/twn06",
            "Lommen_22/twn18",
            "Lommen_24/non_linear05",
            "Lommen_24/non_linear06",
            "Lommen_24/non_linear07",
            "Lommen_24/non_linear08",
            "Lommen_24/non_linear14",
        ],
        7,
    );
}

/// Analyses the named files and checks the bounds of those with a twn loop on runs; at
/// least `min` must have one.
fn check_lommen(names: &[&str], min: usize) {
    let Some(dir) = common::koat_dir() else {
        return;
    };
    let mut with_twn = 0;
    for f in common::koat_files(&dir) {
        let name = f.display().to_string();
        if !names.iter().any(|n| name.contains(&format!("{n}.koat"))) {
            continue;
        }
        let (its, refined, c) = analyse_refined(&std::fs::read_to_string(&f).unwrap());
        let Some(c) = c
            .ok()
            .filter(|c| !c.twn.is_empty() || ratio_removals(c) > 0)
        else {
            continue;
        };
        with_twn += 1;
        check_runs(&its, &c, 6, 30);
        if !c.twn.is_empty() {
            check_loops_on_runs(&refined, &c, 6, 60);
        }
    }
    assert!(
        with_twn >= min,
        "only {with_twn} of {} files used a twn loop or a shrinking ratio",
        names.len()
    );
}
