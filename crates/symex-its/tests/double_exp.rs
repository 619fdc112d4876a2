//! Doubly exponential bounds ([`symex_its::bound::Bound::DoubleExp`]): a size that a loop squares
//! (Lommen's `size14`, `B' = B²`) or doubles an exponential number of times (KoAT-2014's
//! `scaling-doubly-exp-growth`), and a later loop that counts it down. Each bound is checked
//! against the worst case over every run from small start values, found by exhaustive search,
//! and that worst case against a count by hand.
use common::check_worst_case;
use symex_its::bound::Bound;
use symex_its::complexity;
use symex_its::parse_koat;

mod common;

fn bound_of(src: &str) -> (symex_its::Its, complexity::Complexity) {
    common::count_not_time();
    let its = parse_koat(src).unwrap();
    let (_, c) = common::infer_refining(&its);
    let c = c.expect("a bound");
    assert!(
        matches!(c.bound, Bound::DoubleExp(_)),
        "{}",
        c.bound.display(&its.vars)
    );
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(EXP)"));
    (its, c)
}

#[test]
fn a_squared_size_counted_down_is_doubly_exponential() {
    let (its, c) = bound_of(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR A B)\n(RULES\n  \
         l0(A,B) -> l1(A,2)\n  \
         l1(A,B) -> l1(A - 1,B^2) :|: A > 0\n  \
         l1(A,B) -> l2(A,B) :|: A <= 0\n  \
         l2(A,B) -> l2(A,B - 1) :|: B > 0\n)\n",
    );
    let starts: Vec<Vec<i128>> = (-1..=3)
        .flat_map(|a| [-3, 0, 5].map(|b| vec![a, b]))
        .collect();
    let worst = check_worst_case(&its, &c, &starts, 0);
    // A = 3: l0 once, l1 three times (B = 2, 4, 16, 256), the step to l2, B = 2^(2^3) = 256 laps.
    assert_eq!(worst, 1 + 3 + 1 + 256);
}

#[test]
fn a_size_doubled_exponentially_often_is_doubly_exponential() {
    let (its, c) = bound_of(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f))\n(VAR A B C)\n(RULES\n  \
         f(A, B, C) -> Com_1(g(A, 1, 1))\n  \
         g(A, B, C) -> Com_1(g(A - 1, 2 * B, C)) :|: A > 0\n  \
         g(A, B, C) -> Com_1(h(A, B, C)) :|: A <= 0\n  \
         h(A, B, C) -> Com_1(h(A, B - 1, 2 * C)) :|: B > 0\n  \
         h(A, B, C) -> Com_1(i(A, B, C)) :|: B <= 0\n  \
         i(A, B, C) -> Com_1(i(A, B, C - 1)) :|: C > 0\n)\n",
    );
    let starts: Vec<Vec<i128>> = (-1..=3).map(|a| vec![a, 7, -7]).collect();
    let worst = check_worst_case(&its, &c, &starts, 0);
    // A = 3: f once, g 3 times (B = 8), the step to h, h 8 times (C = 2^8), the step to i,
    // 256 laps of i.
    assert_eq!(worst, 1 + 3 + 1 + 8 + 1 + 256);
}
