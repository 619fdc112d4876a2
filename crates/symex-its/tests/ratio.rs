//! Ratio ranking ([`symex_its::ratio`]): loops whose quotient of two growing values shrinks by a
//! constant factor per lap run a logarithmic number of laps. Each bound is checked against the
//! worst case over every run from small start values (every transition choice, temporaries from a
//! box), found by exhaustive search, and that worst case against a count by hand.
use common::check_worst_case;
use symex_its::complexity;
use symex_its::parse_koat;

mod common;

fn bound_of(src: &str) -> (symex_its::Its, complexity::Complexity) {
    common::count_not_time();
    let its = parse_koat(src).unwrap();
    let (_, c) = common::infer_refining(&its);
    let c = c.expect("a bound");
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    (its, c)
}

/// The laps of Lommen's `non_linear15` from `(x1, x2)` when every lap takes the slower
/// `X2' = 3·X2`: while `0 < X2 < X1`, by the rule itself.
fn laps_by_hand(mut x1: i128, mut x2: i128) -> i128 {
    let mut laps = 0;
    while 0 < x2 && x2 < x1 {
        x1 *= 2;
        x2 *= 3;
        laps += 1;
    }
    laps
}

#[test]
fn lommen_non_linear15_runs_logarithmically_within_a_linear_bound() {
    let (its, c) = bound_of(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X1 X2)\n(RULES\n  \
         l0(X1, X2) -> l1(X1, X2)\n  \
         l1(X1, X2) -> l1(2*X1, 3*X2) :|: X2 < X1 && X2 > 0\n  \
         l1(X1, X2) -> l1(2*X1, 4*X2) :|: X2 < X1 && X2 > 0\n)\n",
    );
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n)"));
    let starts: Vec<Vec<i128>> = [(1, 1), (2, 1), (10, 1), (100, 1), (100, 7), (1000, 1)]
        .iter()
        .map(|&(a, b)| vec![a, b])
        .collect();
    let worst = check_worst_case(&its, &c, &starts, 0);
    // X1 = 1000, X2 = 1: (3/2)^k < 1000 for k ≤ 17, so 18 laps and the entry.
    assert_eq!(laps_by_hand(1000, 1), 18);
    assert_eq!(worst, 1 + 18);
}

#[test]
fn a_stretch_started_again_from_inside_the_scc_counts_again() {
    // Each outer lap (N' = N − 1) starts a new stretch with X1 = N, X2 = 1: about log_1.5 N laps
    // each time. A bound by the SCC's entry alone (X1 at the start) would miss them.
    let (its, c) = bound_of(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X1 X2 N)\n(RULES\n  \
         l0(X1, X2, N) -> l1(0, 0, N)\n  \
         l1(X1, X2, N) -> l1(2*X1, 3*X2, N) :|: X2 < X1 && X2 > 0\n  \
         l1(X1, X2, N) -> l1(N, 1, N - 1) :|: N > 0 && X2 >= X1\n)\n",
    );
    let starts: Vec<Vec<i128>> = (0..=12).map(|n| vec![0, 0, n]).collect();
    let worst = check_worst_case(&its, &c, &starts, 0);
    // N = 12: the entry, 12 outer laps, and laps_by_hand(n, 1) inner ones for n = 12, 11, …, 1.
    let by_hand: i128 = 1 + 12 + (1..=12).map(|n| laps_by_hand(n, 1)).sum::<i128>();
    assert_eq!(worst, by_hand);
}
