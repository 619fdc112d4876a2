//! Wide unfolding ([`symex_its::preprocess::refine_wide`]): a loop head with many self-loops
//! that follow each other only in a few orders (its path dependency automaton) is split into
//! one copy per self-loop. T2's `spiral` (4 entries, 8 self-loops: 96 incoming × outgoing
//! pairs, more than the other unfoldings take) has no linear ranking function for its
//! self-loops together — they go round the origin — but each quarter turn stops at an axis,
//! so the runs are linear. The bound must cover every run from every start of a grid
//! (exhaustive search over the ITS's own semantics), and the worst case must grow.
mod common;

const SPIRAL: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f0))\n(VAR A B)\n(RULES\n\
  f0(A,B) -> Com_1(f2(A,B)) :|: A >= 1 && B >= 1\n\
  f0(A,B) -> Com_1(f2(A,B)) :|: A >= 1 && 0 >= B + 1\n\
  f0(A,B) -> Com_1(f2(A,B)) :|: 0 >= A + 1 && B >= 1\n\
  f0(A,B) -> Com_1(f2(A,B)) :|: 0 >= A + 1 && 0 >= B + 1\n\
  f2(A,B) -> Com_1(f2(A,B - 1)) :|: A >= B && B >= 2 && A >= 1 && A + B >= 2\n\
  f2(A,B) -> Com_1(f2(A,B - 1)) :|: A >= B && B >= 2 && 0 >= A + 1 && A + B >= 2\n\
  f2(A,B) -> Com_1(f2(A,B - 1)) :|: A >= B && 0 >= B && A >= 1 && A + B >= 2\n\
  f2(A,B) -> Com_1(f2(A,B - 1)) :|: A >= B && 0 >= B && 0 >= A + 1 && A + B >= 2\n\
  f2(A,B) -> Com_1(f2(A - 1,B)) :|: 1 >= A + B && A >= B + 1 && A >= 2 && B >= 1\n\
  f2(A,B) -> Com_1(f2(A - 1,B)) :|: 1 >= A + B && A >= B + 1 && A >= 2 && 0 >= B + 1\n\
  f2(A,B) -> Com_1(f2(A - 1,B)) :|: 1 >= A + B && A >= B + 1 && 0 >= A && B >= 1\n\
  f2(A,B) -> Com_1(f2(A - 1,B)) :|: 1 >= A + B && A >= B + 1 && 0 >= A && 0 >= B + 1\n\
  f2(A,B) -> Com_1(f2(A,B + 1)) :|: B >= A && B >= 0 && A >= 1 && 0 >= B + A + 1\n\
  f2(A,B) -> Com_1(f2(A,B + 1)) :|: B >= A && B >= 0 && 0 >= A + 1 && 0 >= B + A + 1\n\
  f2(A,B) -> Com_1(f2(A,B + 1)) :|: B >= A && 0 >= B + 2 && A >= 1 && 0 >= B + A + 1\n\
  f2(A,B) -> Com_1(f2(A,B + 1)) :|: B >= A && 0 >= B + 2 && 0 >= A + 1 && 0 >= B + A + 1\n\
  f2(A,B) -> Com_1(f2(A + 1,B)) :|: B + A >= 0 && B >= A + 1 && A >= 0 && B >= 1\n\
  f2(A,B) -> Com_1(f2(A + 1,B)) :|: B + A >= 0 && B >= A + 1 && A >= 0 && 0 >= B + 1\n\
  f2(A,B) -> Com_1(f2(A + 1,B)) :|: B + A >= 0 && B >= A + 1 && 0 >= A + 2 && B >= 1\n\
  f2(A,B) -> Com_1(f2(A + 1,B)) :|: B + A >= 0 && B >= A + 1 && 0 >= A + 2 && 0 >= B + 1\n)\n";

#[test]
fn the_spiral_falls_apart_into_self_loops() {
    let (its, c) = common::bounded(SPIRAL, "the spiral");
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    let starts: Vec<Vec<i128>> = (-12..=12)
        .flat_map(|a| (-12..=12).map(move |b| vec![a, b]))
        .collect();
    let worst = common::check_worst_case(&its, &c, &starts, 0);
    // From (1, n): n − 1 steps right, then n − 1 down to the axis, and the entry.
    assert_eq!(
        worst,
        1 + 2 * 11,
        "the worst case of the grid, counted by hand"
    );
}
