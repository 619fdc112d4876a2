//! Squares in updates, relaxed for Farkas' lemma ([`symex_its::monomial_relaxation`]).
//!
//! VMCAI'05's `poly1` (Bradley, Manna & Sipma): `A' = A + 1, B' = B + A` or
//! `A' = A − C, B' = B + C², C' = C − 1`, both under `A ≥ B`. The second loop lowers `A − B`
//! by `C² + C`, never negative over the integers; with `B'` free (the update is not linear)
//! no ranking function can use `A − B`, and the file had no bound. The bound must cover the
//! longest run from every start of a grid (exhaustive search over the ITS's own semantics),
//! and that worst case is the one found by a brute-force search written apart from symex
//! (Python, the two updates and the guard as in the file).
mod common;

const POLY1: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS start))\n(VAR A B C)\n(RULES\n\
  eval(A,B,C) -> Com_1(eval(A + 1,B + A,C)) :|: A >= B\n\
  eval(A,B,C) -> Com_1(eval(A - C,B + C*C,C - 1)) :|: A >= B\n\
  start(A,B,C) -> Com_1(eval(A,B,C))\n)\n";

#[test]
fn a_square_in_an_update_is_bounded_by_its_secants() {
    let (its, c) = common::bounded(POLY1, "poly1");
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    // The start rule and 30 loop steps from (−5, −5, 4), by the brute-force search (10, 14,
    // 18, 24, 30 loop steps for boxes of 1 to 5).
    assert_eq!(
        common::check_worst_case(&its, &c, &common::cube(5), 0),
        1 + 30
    );
}

/// Flores-Montoya's `aaron12`, the same loop as C: `x' = x + 1, y' = y + x + 1` or
/// `x' = x − z, y' = y + z², z' = z − 1` while `x ≥ y`, chosen by a fresh value, five
/// transitions a lap.
const AARON12: &str = "(GOAL COMPLEXITY)\n\
(STARTTERM (FUNCTIONSYMBOLS eval_aaron12_start))\n\
(VAR nondef_0 v__0 v__01 v__03 v_1 v_x v_y v_z)\n\
(RULES\n\
  eval_aaron12_start(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_bb0_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_bb0_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_0(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_0(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_1(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_1(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_2(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_2(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_3(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_3(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_4(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_4(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_5(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_5(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_6(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_6(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_7(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_7(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_8(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_8(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_bb1_in(v_x, v_y, v_z, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_bb1_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_bb2_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z)) :|: v__0 >= v__01\n\
  eval_aaron12_bb1_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_bb5_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z)) :|: v__0 < v__01\n\
  eval_aaron12_bb2_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_9(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_9(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_10(v__0, v__01, v__03, nondef_0, v_x, v_y, v_z))\n\
  eval_aaron12_10(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_bb3_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z)) :|: v_1 > 0\n\
  eval_aaron12_10(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_bb4_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z)) :|: v_1 <= 0\n\
  eval_aaron12_bb3_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_bb1_in(v__0 + 1, v__01 + v__0 + 1, v__03, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_bb4_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_bb1_in(v__0 - v__03, v__01 + v__03^2, v__03 - 1, v_1, v_x, v_y, v_z))\n\
  eval_aaron12_bb5_in(v__0, v__01, v__03, v_1, v_x, v_y, v_z) -> Com_1(eval_aaron12_stop(v__0, v__01, v__03, v_1, v_x, v_y, v_z))\n\
)\n";

#[test]
fn the_same_loop_as_c_code_is_bounded_too() {
    let (its, c) = common::bounded(AARON12, "aaron12");
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    // x, y, z in [−4, 4], the rest 0; the fresh value in −1..=1 (only its sign is read).
    let starts: Vec<Vec<i128>> = common::cube(4)
        .into_iter()
        .map(|xyz| [vec![0; 4], xyz].concat())
        .collect();
    // 11 steps to the loop, 18 laps of 5 from (−4, −4, 2), 2 steps out: by the same
    // brute-force search on the file (43, 63, 83, 103 for boxes of 1 to 4).
    assert_eq!(common::check_worst_case(&its, &c, &starts, 1), 103);
}
