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

/// The costliest run from `[−6, 6]³`: the start rule and 21 loop steps from `(6, 5, 6)`, by
/// a brute-force search over all paths written apart from symex (Python, the two updates and
/// the guard as in the file); the loop steps grow by 3 per unit of the box (`3n + 3`, n ≤ 12).
const WORST: i128 = 1 + 21;

fn bounded_against_the_grid(text: &str) {
    let (its, c) = common::bounded(text, "poly3");
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    assert_eq!(
        common::check_worst_case(&its, &c, &common::cube(6), 0),
        WORST
    );
}

#[test]
fn a_multiphase_function_over_the_whole_scc_bounds_the_second_phase() {
    bounded_against_the_grid(POLY3_SPLIT);
}

#[test]
fn the_sign_cases_of_a_cube_give_the_phases_their_guard() {
    bounded_against_the_grid(POLY3);
}

/// T2's `polyrank4`: `A' = A + 1, B' = B + A + 1` or `A' = A − C, B' = B − 2C, C' = C − 1`,
/// both under `A ≥ B`. While `C ≥ 0` the second loop lowers `A` by `C` and the first one
/// walks it back up, about `C²` steps; after, `A − B` ranks the second loop, which the first
/// raises by `−A`. No linear or multiphase function covers both phases; split by the sign of
/// `C` (`preprocess::split_monotone_phases`), the first loop's `(1 − A; A − B)` is raised by
/// `C` per step of the second (amortised, `complexity/multiphase_scc.rs`), and after `C < 0`
/// the raise `−A` never grows (its bound needs no size of `A`, `entry_bounded_increase`).
const POLYRANK4: &str =
    "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f0))\n(VAR A B C)\n(RULES\n\
  f0(A,B,C) -> Com_1(f1(A,B,C))\n\
  f1(A,B,C) -> Com_1(f1(A + 1,B + A + 1,C)) :|: A >= B\n\
  f1(A,B,C) -> Com_1(f1(A - C,B - 2*C,C - 1)) :|: A >= B\n)\n";

#[test]
fn phases_of_a_falling_variable_each_get_an_amortised_bound() {
    let (its, c) = common::bounded(POLYRANK4, "polyrank4");
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    let r = -5..=5i128;
    let starts: Vec<Vec<i128>> = r
        .clone()
        .flat_map(|a| {
            let r = r.clone();
            r.clone()
                .flat_map(move |b| r.clone().map(move |c| vec![a, b, c]))
        })
        .collect();
    // The start rule and 57 loop steps from (−5, −5, 5), by the same brute-force search
    // (it grows about quadratically: 9, 17, 28, 41, 57 for boxes of 1 to 5).
    assert_eq!(common::check_worst_case(&its, &c, &starts, 0), 1 + 57);
}

/// The phase split has the same costliest runs as the ITS it splits, from every start of
/// `[−4, 4]³` (longest paths over the ITS's own semantics), and it does split.
#[test]
fn the_phase_split_keeps_the_costliest_runs() {
    let its = parse_koat(POLYRANK4).unwrap();
    let split =
        symex_its::preprocess::split_monotone_phases(&its, std::time::Duration::from_secs(10))
            .expect("C falls and drives A and B");
    assert!(split.locations.len() > its.locations.len());
    let mut memo = std::collections::HashMap::new();
    let mut split_memo = std::collections::HashMap::new();
    for a in -4..=4i128 {
        for b in -4..=4i128 {
            for c in -4..=4i128 {
                let start = [a, b, c];
                let worst = common::worst_cost(&its, its.start, &start, 0, 400, &mut memo);
                let split_worst =
                    common::worst_cost(&split, split.start, &start, 0, 400, &mut split_memo);
                assert_eq!(worst, split_worst, "{start:?}");
            }
        }
    }
}
