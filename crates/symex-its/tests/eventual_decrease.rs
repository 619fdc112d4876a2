//! Eventual decrease in an SCC whose runtime and size bounds wait for each other.
//!
//! VMCAI'05's `poly3` (Bradley, Manna & Sipma): `A' = A − 1, C' = C − 1` or
//! `B' = B + C, C' = C − 1`, both under `A ≥ 0 ∧ B³ ≥ C`. `C` eventually falls below zero and
//! `B` then falls: no linear ranking function bounds the second loop, and the multiphase one
//! `(C + 1; B)` needs `B ≥ 0`, which only the case split of the guard by the sign of `B`
//! provides (`preprocess::split_power_signs`: `B ≤ −1 ∧ B³ ≥ C` gives `C ≤ B`). Its bound
//! then comes from the entries of the whole SCC (`complexity/multiphase_scc.rs`): the entries
//! of the loop alone come after the other loop, whose sizes of `B` wait for this very bound.
//! Each bound must cover the longest run from every start of a grid (exhaustive search over
//! the ITS's own semantics), and the worst case is the one found by brute force.
use symex_its::parse_koat;

mod common;

const POLY3: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS start))\n(VAR A B C)\n(RULES\n\
  eval(A,B,C) -> Com_1(eval(A - 1,B,C - 1)) :|: A >= 0 && B*B*B >= C\n\
  eval(A,B,C) -> Com_1(eval(A,B + C,C - 1)) :|: A >= 0 && B*B*B >= C\n\
  start(A,B,C) -> Com_1(eval(A,B,C))\n)\n";

/// `POLY3` split by hand by the sign of `B`, with the linear consequence `C ≤ B` of the
/// guard where `B ≤ −1`: what the multiphase rule gets without the power split.
const POLY3_SPLIT: &str =
    "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS start))\n(VAR A B C)\n(RULES\n\
  eval(A,B,C) -> Com_1(eval(A - 1,B,C - 1)) :|: A >= 0 && B*B*B >= C && B >= 0\n\
  eval(A,B,C) -> Com_1(eval(A - 1,B,C - 1)) :|: A >= 0 && B*B*B >= C && B <= -1 && C <= B\n\
  eval(A,B,C) -> Com_1(eval(A,B + C,C - 1)) :|: A >= 0 && B*B*B >= C && B >= 0\n\
  eval(A,B,C) -> Com_1(eval(A,B + C,C - 1)) :|: A >= 0 && B*B*B >= C && B <= -1 && C <= B\n\
  start(A,B,C) -> Com_1(eval(A,B,C))\n)\n";

/// Every start in `[−6, 6]³`.
fn grid() -> Vec<Vec<i128>> {
    let r = -6..=6i128;
    r.clone()
        .flat_map(|a| {
            let r = r.clone();
            r.clone()
                .flat_map(move |b| r.clone().map(move |c| vec![a, b, c]))
        })
        .collect()
}

/// The costliest run from `[−6, 6]³`: the start rule and 21 loop steps from `(6, 5, 6)`, by
/// a brute-force search over all paths written apart from symex (Python, the two updates and
/// the guard as in the file); the loop steps grow by 3 per unit of the box (`3n + 3`, n ≤ 12).
const WORST: i128 = 1 + 21;

fn bounded_against_the_grid(text: &str) {
    common::count_not_time();
    let its = parse_koat(text).unwrap();
    let (_, c) = common::infer_refining(&its);
    let c = c.expect("a bound");
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    assert_eq!(common::check_worst_case(&its, &c, &grid(), 0), WORST);
}

#[test]
fn a_multiphase_function_over_the_whole_scc_bounds_the_second_phase() {
    bounded_against_the_grid(POLY3_SPLIT);
}

#[test]
fn the_sign_cases_of_a_cube_give_the_phases_their_guard() {
    bounded_against_the_grid(POLY3);
}
