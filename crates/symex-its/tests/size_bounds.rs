//! Size bounds: exponential runtime bounds (`O(EXP)`) from sizes that loops multiply, and
//! updates bounded by their guards: hand-written ITSs with hand-computed costs, every bound
//! also checked against the interpreter's runs.
mod common;

use std::time::Duration;
use symex_its::complexity::Complexity;
use symex_its::{parse_koat, Its};

fn analyse(rules: &str, vars: &str) -> (Its, Complexity) {
    let src = format!(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR {vars})\n(RULES\n{rules}\n)\n"
    );
    let its = parse_koat(&src).unwrap();
    let (_, c) = common::infer_refining(&its);
    (its, c.unwrap())
}

/// Runs the original ITS from random start values in `-r..=r`; no run may cost more than
/// the bound. Returns how many runs were checked (a bound too large for `i128` is skipped).
fn check_runs(its: &Its, c: &Complexity, r: i128, runs: u64) -> usize {
    let starts = common::random_starts(5, its.arity(), r, runs);
    common::bound_holds_on_runs(its, c, starts, "size bounds")
}

#[test]
fn doubling_then_counting_down_is_exponential() {
    common::count_not_time();
    // X doubles N times, then a loop counts it down: 1 + N + 1 + X·2^N steps for N ≥ 0,
    // X ≥ 0.
    let (its, c) = analyse(
        "  l0(X,I,N) -> l1(X,0,N)\n  l1(X,I,N) -> l1(2 * X,I + 1,N) :|: I < N\n  l1(X,I,N) -> l2(X,I,N) :|: I >= N\n  l2(X,I,N) -> l2(X - 1,I,N) :|: X > 0\n",
        "X I N",
    );
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(EXP)"));
    // Hand-computed at X = 3, N = 4: 1 + 4 + 1 + 48 = 54.
    assert!(c.bound.eval(&[3, 0, 4]).unwrap() >= 54);
    assert!(check_runs(&its, &c, 7, 60) > 40);
}

#[test]
fn fibonacci_growth_is_bounded_together() {
    common::count_not_time();
    // (X, Y) ← (X + Y, X) N times from (1, 0) gives X = fib(N + 1); then X steps down.
    let (its, c) = analyse(
        "  l0(X,Y,N) -> l1(X,Y,N)\n  l1(X,Y,N) -> l1(X + Y,X,N - 1) :|: N > 0\n  l1(X,Y,N) -> l2(X,Y,N) :|: N <= 0\n  l2(X,Y,N) -> l2(X - 1,Y,N) :|: X > 0\n",
        "X Y N",
    );
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(EXP)"));
    // Hand-computed at X = 1, Y = 0, N = 10: 1 + 10 + 1 + fib(11) = 12 + 89 = 101.
    assert!(c.bound.eval(&[1, 0, 10]).unwrap() >= 101);
    assert!(check_runs(&its, &c, 6, 60) > 40);
}

#[test]
fn negated_update_stays_polynomial() {
    common::count_not_time();
    // X' = −X + 1 never more than adds one to |X|: N + |X| + N + 2 steps at most, linear.
    let (its, c) = analyse(
        "  l0(X,N) -> l1(X,N)\n  l1(X,N) -> l1(1 - X,N - 1) :|: N > 0\n  l1(X,N) -> l2(X,N) :|: N <= 0\n  l2(X,N) -> l2(X - 1,N) :|: X > 0\n",
        "X N",
    );
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n)"));
    // Hand-computed at X = 5, N = 3: X goes −4, 5, −4; 1 + 3 + 1 + 0 = 5 steps.
    assert!(c.bound.eval(&[5, 3]).unwrap() >= 5);
    assert!(check_runs(&its, &c, 9, 60) > 40);
}

#[test]
fn guard_bounded_increment_breaks_the_cycle() {
    common::count_not_time();
    // The inner loop counts D from 0 past B (D + 1 under 0 ≤ D ≤ B), the outer one sets D
    // back to D − B − 1 = 0, N times. D's size needs the inner loop's runtime bound, which
    // needs D's size — unless the guard bounds D + 1 by |B| + 1.
    let (its, c) = analyse(
        "  l0(D,B,N) -> l1(0,B,N) :|: B >= 0\n  l1(D,B,N) -> l1(D + 1,B,N) :|: D >= 0 && B >= D\n  l1(D,B,N) -> l2(D,B,N) :|: D > B\n  l2(D,B,N) -> l1(D - B - 1,B,N - 1) :|: N > 0\n",
        "D B N",
    );
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n^2)"));
    // Hand-computed at B = 3, N = 2: 1 + 3·(4 inner + 1 exit) + 2 outer = 18.
    assert!(c.bound.eval(&[0, 3, 2]).unwrap() >= 18);
    assert!(check_runs(&its, &c, 8, 60) > 20);
}

#[test]
fn outer_loop_leaves_the_inner_counter_small() {
    common::count_not_time();
    // WTC's `complex`: the inner loop closes the gap D − C (C + 7 or C + 2, D + 1), the
    // outer one (C ≥ D, D ≤ 27) sets C − 10, D + 2, so the inner loop restarts at
    // D − C ≤ 12 whatever the sizes of C and D; the outer loop raises D towards 28. The
    // size of C needs the inner loop's runtime bound and vice versa: only the entry's
    // guard bounds `D − C`. Linear: the first entry's gap plus 12 per outer step.
    let (its, c) = analyse(
        "  l0(C,D) -> l1(C,D)\n  l1(C,D) -> l1(C + 7,D + 1) :|: D >= C + 1 && C >= 6\n  l1(C,D) -> l1(C + 2,D + 1) :|: D >= C + 1 && 5 >= C\n  l1(C,D) -> l1(C - 10,D + 2) :|: C >= D && 27 >= D\n",
        "C D",
    );
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n)"));
    // Hand-computed at C = D = 6 (the guards exclude each other): (−4, 8), five steps of
    // two to (6, 13), (13, 14), (20, 15); (10, 17), (17, 18), (24, 19); (14, 21), (21, 22),
    // (28, 23); (18, 25), (25, 26), (32, 27); (22, 29), (29, 30), (36, 31): 1 + 20 = 21.
    assert!(c.bound.eval(&[6, 6]).unwrap() >= 21);
    assert!(check_runs(&its, &c, 8, 60) > 40);
}

#[test]
fn copies_between_counters_keep_their_maximum() {
    common::count_not_time();
    // Rank's `ex1`: the outer loop copies C into D (D' = C), the inner loop counts D up
    // past B, the way back copies D − 1 into C; a self-loop counts C down (C − 1 under
    // C ≥ 0 reaches −1: |C'| ≤ max(|C|, 2)). Bounded together, |C| + |D| would double on
    // each copy (exponential); their maximum grows only by the additive steps.
    let (its, c) = analyse(
        "  l0(A,B,C,D,E) -> l1(B,B,0,D,E)\n  l1(A,B,C,D,E) -> l2(A,B,C,C,E) :|: A >= 0 && C >= 0\n  l2(A,B,C,D,E) -> l2(A,B,C,D + 1,E) :|: B >= D\n  l2(A,B,C,D,E) -> l1(A - 1,B,D - 1,A - 1,D) :|: D >= B + 1\n  l1(A,B,C,D,E) -> l1(A,B,C - 1,A,C) :|: A >= 0 && C >= 0\n",
        "A B C D E",
    );
    assert!(c.bound.is_polynomial(), "{:?}", c.bound);
    // The most expensive run at B = 4, by exhaustive search over the choices at l1 (by
    // hand: 4, 10, 20, 34, 52 for B = 0..4).
    assert!(c.bound.eval(&[0, 4, 0, 0, 0]).unwrap() >= 52);
    assert!(check_runs(&its, &c, 5, 60) > 40);
}

#[test]
fn guard_capped_counter_bounds_its_copy_without_runtime_bounds() {
    common::count_not_time();
    // The shape of WTC's `counterex1b`: each round copies A into C, counts C down, sets
    // E := C and counts E up to F + 1, then A := E. A, C and E bound each other; E's
    // step `E + 1` under `F ≥ E` never takes |E| above max(|E|, |F| + 1), so the result
    // variables of the cycle are bounded by the entry sizes and |F| + 1 (no runtime bound
    // needed), and each of the B + 1 rounds runs both loops O(n) times.
    let (its, c) = analyse(
        "  l0(A,B,C,E,F) -> l1(A,B,C,E,F)\n  l1(A,B,C,E,F) -> l2(A,B,A,E,F) :|: B >= 0\n  l2(A,B,C,E,F) -> l2(A,B,C - 1,E,F) :|: C >= 0\n  l2(A,B,C,E,F) -> l3(A,B,C,C,F) :|: 0 >= C + 1\n  l3(A,B,C,E,F) -> l3(A,B,C,E + 1,F) :|: F >= E\n  l3(A,B,C,E,F) -> l1(E,B - 1,C,E,F) :|: E >= F + 1\n",
        "A B C E F",
    );
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n^2)"));
    // Hand-computed at A = 3, B = 2, F = 1: 1 + (1 + 4 + 1 + 3 + 1) + 2·(1 + 3 + 1 + 3 + 1)
    // = 29 (C counts 3..0 then 2..0 twice, E counts −1..1 each round).
    assert!(c.bound.eval(&[3, 2, 0, 0, 1]).unwrap() >= 29);
    assert!(check_runs(&its, &c, 6, 60) > 40);
}

#[test]
fn inner_counter_reset_at_the_outer_head_gets_a_size_per_result_variable() {
    common::count_not_time();
    // The shape of T2's `elmhes`: D := B at the outer head, then (through l3) an inner
    // loop counts D up to A + 1 on two paths; B counts up to A. D after the reset is a
    // result variable of its own, bounded by B's size, so the inner loop's entry value
    // A − D needs no runtime bound of the inner loop (one SCC-wide size of D would).
    let (its, c) = analyse(
        "  l0(A,B,C,D,E) -> l1(A,B,C,D,E)\n  l1(A,B,C,D,E) -> l2(A,B,0,B,E) :|: A >= B + 1\n  l2(A,B,C,D,E) -> l2(A,B,C,D,E + 1) :|: A >= E\n  l2(A,B,C,D,E) -> l2(A,B,X,E,E + 1) :|: A >= E\n  l2(A,B,C,D,E) -> l3(A,B,C,D,E) :|: E >= A + 1\n  l3(A,B,C,D,E) -> l4(A,B,C,D,E)\n  l4(A,B,C,D,E) -> l4(A,B,C,D + 1,E) :|: A >= D\n  l4(A,B,C,D,E) -> l5(A,B,C,D,E) :|: A >= D && X >= 1\n  l5(A,B,C,D,E) -> l4(A,B,C,D + 1,E) :|: E >= A + 1\n  l4(A,B,C,D,E) -> l1(A,B + 1,C,D,E) :|: D >= A + 1\n",
        "A B C D E",
    );
    assert_eq!(c.bound.asymptotic().as_deref(), Some("O(n^2)"));
    // Hand-computed for one run at A = 3, B = C = D = E = 0 (E's first loop step, D's
    // one-step path): 1 + (1 + 4 + 1 + 1 + 4 + 1) + (1 + 1 + 1 + 3 + 1) + (1 + 1 + 1 + 2
    // + 1) = 26.
    assert!(c.bound.eval(&[3, 0, 0, 0, 0]).unwrap() >= 26);
    assert!(check_runs(&its, &c, 5, 60) > 40);
}

#[test]
fn counter_capped_by_the_guard_breaks_a_cycle_of_its_copy() {
    common::count_not_time();
    // The shape of SAS10's `counterex1`: `B` climbs to `H` in one loop (`E := B` keeps
    // its previous value, `E + 1 = B` in the guards), falls to 0 in another, and `D`
    // counts the rounds down. The climbing loop's runtime bound needs `|B|`, whose
    // change there waits for that bound; the guard caps `|B'|` at `max(|B|, |H| + K)`
    // without one (and not by `|E| + K`, `B`'s own copy).
    let (its, c) = analyse(
        "  l0(A,B,C,D,E,F,G,H) -> l1(A,C,C,A,F,F,H,H)\n  l1(A,B,C,D,E,F,G,H) -> l5(A,B,C,D,E,F,G,H) :|: 0 >= A + 1\n  l1(A,B,C,D,E,F,G,H) -> l2(A,B - 1,C,D,E,F,G,H) :|: A >= 0 && C >= 0\n  l1(A,B,C,D,E,F,G,H) -> l4(A,B,C,D - 1,E,F,G,H) :|: A >= 0\n  l1(A,B,C,D,E,F,G,H) -> l3(A,1 + B,C,D - 1,B,F,G,H) :|: H >= C && A >= 0\n  l3(A,B,C,D,E,F,G,H) -> l4(A,B,C,D,E,F,G,H) :|: A >= D + 1 && D + 1 >= 0 && H + 1 >= B && E + 1 = B\n  l3(A,B,C,D,E,F,G,H) -> l3(A,1 + B,C,D,B,F,G,H) :|: H >= B && A >= D + 1 && D + 1 >= 0 && E + 1 = B\n  l2(A,B,C,D,E,F,G,H) -> l2(A,B - 1,C,D,E,F,G,H) :|: B >= 0 && D >= 0 && A >= D\n  l2(A,B,C,D,E,F,G,H) -> l4(A,B,C,D - 1,E,F,G,H) :|: B + 1 >= 0 && D >= 0 && A >= D\n  l2(A,B,C,D,E,F,G,H) -> l3(A,1 + B,C,D - 1,B,F,G,H) :|: H >= B && B + 1 >= 0 && D >= 0 && A >= D\n  l4(A,B,C,D,E,F,G,H) -> l5(A,B,C,D,E,F,G,H) :|: A >= 0 && D + 1 = 0\n  l4(A,B,C,D,E,F,G,H) -> l2(A,B - 1,C,D,E,F,G,H) :|: D >= 0 && B >= 0 && A >= D + 1\n  l4(A,B,C,D,E,F,G,H) -> l4(A,B,C,D - 1,E,F,G,H) :|: D >= 0 && A >= D + 1\n  l4(A,B,C,D,E,F,G,H) -> l3(A,1 + B,C,D - 1,B,F,G,H) :|: H >= B && D >= 0 && A >= D + 1\n",
        "A B C D E F G H",
    );
    assert!(c.bound.asymptotic().is_some(), "a finite bound");
    assert!(check_runs(&its, &c, 6, 200) > 100);
}

#[test]
fn guard_cap_prefers_a_variable_not_tied_to_the_counter() {
    common::count_not_time();
    // `B' = B + 1` under `H ≥ B ∧ E + 1 = B`: both `|E| + K` and `|H| + K` cap `|B'|`;
    // the cap over `H` alone is the one that needs no size of `B`'s copy.
    let its = parse_koat(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR B E H)\n(RULES\n  l0(B,E,H) -> l0(B + 1,B,H) :|: H >= B && E + 1 = B\n)\n",
    )
    .unwrap();
    let t = &its.transitions[0];
    let mut solver = symex_its::smt::solver(Duration::from_secs(10));
    let cap = symex_its::local_size::capped_by_guard(solver.as_mut(), t, 3, 0, &t.update()[0])
        .expect("a cap");
    assert_eq!(cap.vars, vec![2]);
    assert_eq!(cap.factor, 1);
    // Brute force: wherever the guard holds, |B + 1| ≤ max(|B|, K + |H|).
    for b in -20i128..=20 {
        for h in -20i128..=20 {
            let e = b - 1;
            if h >= b && e + 1 == b {
                let m = b.abs().max(cap.constant + h.abs());
                assert!((b + 1).abs() <= m, "B = {b}, H = {h}");
            }
        }
    }
}
