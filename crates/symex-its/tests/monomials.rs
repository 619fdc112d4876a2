//! Ranking over a monomial of unchanged variables: ABC's `ex04` runs its outer loop until `A`
//! reaches a temporary `E` with `2·E ≤ B³ ≤ 2·E + 1`, so about `B³/2` times, each time two
//! nested loops over `B`; `B³ − 2·A` ranks the outer loop. The bound must be finite and hold
//! against the worst case over all runs from small start values (every transition choice,
//! temporaries from a box wide enough for `E = ⌊B³/2⌋`), computed by exhaustive search here.
use common::check_worst_case;
use symex_its::parse_koat;

mod common;

#[test]
fn abc_ex04_is_bounded_through_b_cubed() {
    common::count_not_time();
    let Some(dir) = common::koat_dir() else {
        return;
    };
    let src =
        std::fs::read_to_string(dir.join("Brockschmidt_16/c-examples/ABC/ex04.koat")).unwrap();
    let its = parse_koat(&src).unwrap();
    let (_, c) = common::infer_refining(&its);
    let c = c.expect("a bound");
    assert!(c.bound.is_polynomial(), "{}", c.bound.display(&its.vars));
    // The bound is over the file's variables A, B, C, D only (the monomial's variable is gone).
    assert!(c.bound.vars().iter().all(|&v| v < its.arity()));
    let mut starts = Vec::new();
    for b in -3..=3 {
        for other in [0, 2] {
            starts.push(vec![other, b, other, other]);
        }
    }
    // B = 3: E = 13, and each outer lap takes 1 + (3 + 5 + 7) + 2 = 18 steps (C = 0, 1, 2),
    // plus two steps to enter and two to leave: 238, as counted by hand.
    let worst = check_worst_case(&its, &c, &starts, 14);
    assert_eq!(worst, 2 + 13 * 18 + 2);
}
