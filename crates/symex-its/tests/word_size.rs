//! Word-size removals ([`symex_its::word_size`]) bound each stretch of their doublings, not each
//! entry into the SCC: when a transition ranked earlier resets the doubled value, every reset
//! starts up to `w` doublings again. The bound must cover the count by hand.
use symex_its::parse_koat;

mod common;

/// The steps from `N = n`: the entry; then per outer lap the reset `X := 1` and the doublings
/// `X := 2·X mod 256` until `X = 0` (1 → 2 → … → 128 → 0: 8 of them), simulated here.
fn steps_by_hand(n: i128) -> i128 {
    let mut steps = 1;
    for _ in 0..n {
        steps += 1;
        let mut x: i128 = 1;
        while x != 0 {
            x = (2 * x) % 256;
            steps += 1;
        }
    }
    steps
}

#[test]
fn a_reset_inside_the_scc_starts_the_doublings_again() {
    common::count_not_time();
    let its = parse_koat(
        "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X N T M)\n(RULES\n  \
         l0(X, N) -> l1(0, N)\n  \
         l1(X, N) -> l1(T, N) :|: X >= 1 && 255 >= X && T >= 0 && 255 >= T && T + 256*M = 2*X\n  \
         l1(X, N) -> l1(1, N - 1) :|: N >= 1 && X = 0\n)\n",
    )
    .unwrap();
    let (_, c) = common::infer_refining(&its);
    let c = c.expect("a bound");
    assert_eq!(steps_by_hand(3), 1 + 3 * 9);
    for n in 0..=20 {
        let bound = c.bound.eval(&[0, n]).unwrap();
        assert!(
            steps_by_hand(n) <= bound,
            "N = {n}: {} steps > bound {} = {bound}",
            steps_by_hand(n),
            c.bound.display(&its.vars)
        );
    }
}
