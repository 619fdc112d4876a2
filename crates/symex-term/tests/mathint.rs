//! `--math-int` (the semantics of the Termination Competition's C_Integer category) against
//! the reference interpreter: a C run is a run of the mathematical-integer model until the
//! interpreter's signed-overflow check stops it, so runs on small inputs are evidence, runs
//! that overflow are neither evidence nor counterexamples (counted), and a NO needs a
//! witness that does not end while it stays in range.

mod common;
use common::*;
use symex_engine::{BugKind, End, Halt, Program};
use symex_term::rules::Semantics;
use symex_term::validate::{self, math_int_faithful};
use symex_term::Answer;

const MATH: Semantics = Semantics {
    math_int: true,
    signed_wrap: false,
};

const HEADER: &str = "extern int __VERIFIER_nondet_int(void);\n\
                      extern unsigned __VERIFIER_nondet_uint(void);\n";

/// Runs `main` of the plain build on `int` inputs, with the overflow check on.
fn run_ints(prog: &Program, inputs: &[i128], limit: u64) -> End {
    let named: Vec<(String, u32, i128)> = inputs
        .iter()
        .map(|v| ("__VERIFIER_nondet_int".to_string(), 32, *v))
        .collect();
    run_test(prog, &validate::test_file("main", &named), limit)
}

fn overflowed(end: &End) -> bool {
    matches!(end, End::Bug(b) if b.kind == BugKind::SignedOverflow)
}

/// `y * 10` overflows C for small inputs; over ℤ the loop runs `x` times.
const GROWING: &str =
    "int main(void) { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int();\n\
                       while (x > 0) { y = y * 10; x = x - 1; } return 0; }\n";

#[test]
fn yes_is_checked_on_runs_that_stay_in_range_and_overflowing_runs_are_counted() {
    let (_dir, path) = source(&format!("{HEADER}{GROWING}"));
    let plain = load(&path, false);
    // Bit-vectors: `y * 10` may overflow (ERR). Integers: x falls.
    assert_eq!(term(&path, Semantics::default()).answer, Answer::Maybe);
    let report = term(&path, MATH);
    assert_eq!(report.answer, Answer::Yes, "{:?}", report.reason);
    assert!(math_int_faithful(&plain).is_ok());
    let check = validate::check(&plain, &options(MATH), &report, 20);
    assert!(check.contradiction.is_none(), "{}", check.summary());
    assert_eq!(check.runs, 20);
    assert!(
        check.overflowed > 0 && check.finished > 0,
        "{}",
        check.summary()
    );
    assert_eq!(check.finished + check.overflowed + check.limit_reached, 20);
    // Brute force: every run ends or leaves the range; none runs on.
    let prog = Program::new(plain);
    let (mut ended, mut left) = (0, 0);
    for x in -3..=15 {
        for y in -3..=3 {
            let end = run_ints(&prog, &[x, y], 100_000);
            assert!(!matches!(end, End::Halt(Halt::Limit(_))), "x={x}, y={y}");
            if overflowed(&end) {
                left += 1
            } else {
                ended += 1
            }
        }
    }
    assert!(ended > 0 && left > 0);
}

#[test]
fn no_from_a_recurrent_set_whose_witness_leaves_the_range_without_ending() {
    // NonTermination1 of the TPDB: over ℤ, x ≥ 2 doubles forever.
    let body = "int main(void) { int x = __VERIFIER_nondet_int(); while (x > 1) { x = 2 * x; } return 0; }\n";
    let (_dir, path) = source(&format!("{HEADER}{body}"));
    let plain = load(&path, false);
    let report = term(&path, MATH);
    assert_eq!(report.answer, Answer::No, "{:?}", report.reason);
    let w = report.witness.as_ref().expect("a witness");
    let check = validate::check(&plain, &options(MATH), &report, 0);
    assert!(check.contradiction.is_none(), "{}", check.summary());
    assert_eq!(check.witness_replayed, Some(false));
    assert_eq!(check.overflowed, 1);
    // Independently: from the witness and from every x > 1 the C run never ends normally
    // (it only stops when 2·x leaves the range); from x ≤ 1 it ends.
    let prog = Program::new(plain);
    assert!(overflowed(&run_ints(&prog, &[w.inputs[0].2], 100_000)));
    for x in -5..=60 {
        let end = run_ints(&prog, &[x], 100_000);
        assert_eq!(overflowed(&end), x > 1, "x = {x}: {end:?}");
    }
    // Bit-vectors: the doubling overflows (ERR), and no NO is claimed.
    assert_eq!(term(&path, Semantics::default()).answer, Answer::Maybe);
}

#[test]
fn no_whose_witness_runs_into_the_limit_in_range() {
    // NonTerminationSimple3: x ≥ 0 with c ≥ 0 stays (a recurrent set the guard and a sign
    // atom make); the witness x = c = 0 loops in C without overflow.
    let body =
        "int main(void) { int c = __VERIFIER_nondet_int(); int x = __VERIFIER_nondet_int();\n\
                while (x >= 0) { x = x + c; } return 0; }\n";
    let (_dir, path) = source(&format!("{HEADER}{body}"));
    let plain = load(&path, false);
    let report = term(&path, MATH);
    assert_eq!(report.answer, Answer::No, "{:?}", report.reason);
    let check = validate::check(&plain, &options(MATH), &report, 0);
    assert_eq!(check.witness_replayed, Some(true), "{}", check.summary());
    assert!(check.contradiction.is_none());
    let w = report.witness.as_ref().expect("a witness");
    let inputs: Vec<i128> = w.inputs.iter().map(|i| i.2).collect();
    let end = run_ints(&Program::new(plain), &inputs, 1_000_000);
    assert!(loops(&end), "{end:?}");
}

#[test]
fn a_witness_is_not_replayed_where_c_differs_from_the_integers_without_a_check() {
    // Unsigned arithmetic wraps silently in C: no C run stands for a run over ℤ.
    let body = "int main(void) { unsigned x = __VERIFIER_nondet_uint(); while (x < 10) { x = x + 0; } return 0; }\n";
    let (_dir, path) = source(&format!("{HEADER}{body}"));
    let plain = load(&path, false);
    let why = math_int_faithful(&plain).expect_err("unsigned arithmetic");
    assert!(why.contains("nsw") || why.contains("unsigned"), "{why}");
    let report = term(&path, MATH);
    if report.answer == Answer::No {
        let check = validate::check(&plain, &options(MATH), &report, 0);
        assert!(check.contradiction.is_some(), "{}", check.summary());
    }
    // The C_Integer programs are all `int` with `nsw` arithmetic.
    let (_d2, p2) = source(&format!("{HEADER}{GROWING}"));
    assert!(math_int_faithful(&load(&p2, false)).is_ok());
}

#[test]
fn literals_beyond_the_bound_stop_instead_of_wrapping_the_representation() {
    // NonTermination4 of the TPDB: x = 1, 2, 4, … stays ≥ 0 over ℤ forever. Literals are
    // `i128`s: unchecked, x wrapped negative after 127 doublings and the loop "ended" (YES).
    let body = "int main(void) { int x = 1; int y = 1; while (x >= 0) { x = 2 * x; y = 3 * y; } return 0; }\n";
    let (_dir, path) = source(&format!("{HEADER}{body}"));
    let report = term(&path, MATH);
    assert_ne!(report.answer, Answer::Yes, "{:?}", report.reason);
}

#[test]
fn no_when_every_later_input_is_zero() {
    // NonTerminationSimple5: the loop reads an input each time; with 0 it takes x + 1 and
    // x ≥ 0 stays. The witness replay reads zero bytes past its inputs, as the set assumes.
    let body = "int main(void) { int x = __VERIFIER_nondet_int();\n\
                while (x >= 0) { if (__VERIFIER_nondet_int() != 0) x = x - 1; else x = x + 1; } return 0; }\n";
    let (_dir, path) = source(&format!("{HEADER}{body}"));
    let plain = load(&path, false);
    let report = term(&path, MATH);
    assert_eq!(report.answer, Answer::No, "{:?}", report.reason);
    assert!(report
        .reason
        .as_deref()
        .unwrap_or("")
        .contains("every later input is 0"));
    let check = validate::check(&plain, &options(MATH), &report, 0);
    assert!(check.contradiction.is_none(), "{}", check.summary());
    // Independently: from every small x ≥ 0 with zeros after it the run does not end; a 1
    // after it ends the run from x = 0.
    let prog = Program::new(plain);
    for x in 0..20 {
        assert!(loops(&run_ints(&prog, &[x], 200_000)), "x = {x}");
    }
    assert!(!loops(&run_ints(&prog, &[0, 1], 200_000)));
}

#[test]
fn no_from_a_guard_over_a_temporary_reached_by_a_solver_model() {
    // Mysore (TPDB): `x + c ≥ 0` is a temporary of the chain (t = x + c, t ≥ 0); with c < 0
    // it stays: x' + c' = x − 1 ≥ 0 as x ≥ −c ≥ 1. Inputs into the set come from a model of
    // the start chain (x ≥ 1 − c with c < 0 is rare among boundary values).
    let body =
        "int main(void) { int x = __VERIFIER_nondet_int(); int c = __VERIFIER_nondet_int();\n\
                if (c < 0) { while (x + c >= 0) { x = x - c; c = c - 1; } } return 0; }\n";
    let (_dir, path) = source(&format!("{HEADER}{body}"));
    let plain = load(&path, false);
    let report = term(&path, MATH);
    assert_eq!(report.answer, Answer::No, "{:?}", report.reason);
    let check = validate::check(&plain, &options(MATH), &report, 0);
    assert!(check.contradiction.is_none(), "{}", check.summary());
    let w = report.witness.as_ref().expect("a witness");
    let inputs: Vec<i128> = w.inputs.iter().map(|i| i.2).collect();
    let end = run_ints(&Program::new(plain), &inputs, 1_000_000);
    assert!(loops(&end) || overflowed(&end), "{inputs:?}: {end:?}");
}

/// `while (x > 0 || y > 0) y--;` as `simplifycfg` folds an `||` (a `select` of the literal
/// `true`): every x > 0 loops forever.
const OR_LOOP: &str = "declare i32 @__VERIFIER_nondet_int()\n\
define i32 @main() {\n\
entry:\n  %x = call i32 @__VERIFIER_nondet_int()\n  %y0 = call i32 @__VERIFIER_nondet_int()\n  br label %head\n\
head:\n  %y = phi i32 [ %y0, %entry ], [ %y1, %body ]\n  %c1 = icmp sgt i32 %x, 0\n  %c2 = icmp sgt i32 %y, 0\n\
  %c = select i1 %c1, i1 true, i1 %c2\n  br i1 %c, label %body, label %exit\n\
body:\n  %y1 = sub nsw i32 %y, 1\n  br label %head\n\
exit:\n  ret i32 0\n}\n";

#[test]
fn the_literal_true_keeps_its_reading_and_its_path() {
    // Read signed under --math-int, `true` was −1, which the unsigned branch condition
    // cannot be: the paths with x > 0 were lost and the loop "terminated" (YES).
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("or.ll");
    std::fs::write(&path, OR_LOOP).expect("write");
    let report = term(&path, MATH);
    assert_ne!(report.answer, Answer::Yes, "{:?}", report.reason);
    // The interpreter: x = 1 runs on (y falls towards the overflow 2³¹ steps away).
    let prog = Program::new(load(&path, false));
    assert!(loops(&run_ints(&prog, &[1, 0], 1_000_000)));
    assert!(!loops(&run_ints(&prog, &[0, 5], 1_000_000)));
}

#[test]
fn no_from_a_fixed_point_of_the_loop_body() {
    // ChenFlurMukhopadhyay Ex2.14 (TPDB): x = 10·y − 2·x keeps x where 3·x = 10·y.
    let body =
        "int main(void) { int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int();\n\
                while (x > 0 && y > 0) { x = 10 * y - 2 * x; } return 0; }\n";
    let (_dir, path) = source(&format!("{HEADER}{body}"));
    let plain = load(&path, false);
    let report = term(&path, MATH);
    assert_eq!(report.answer, Answer::No, "{:?}", report.reason);
    let check = validate::check(&plain, &options(MATH), &report, 0);
    assert_eq!(check.witness_replayed, Some(true), "{}", check.summary());
    // Brute force on the interpreter: exactly the pairs on the line 3·x = 10·y loop.
    let prog = Program::new(plain);
    for x in 1..=40 {
        for y in 1..=12 {
            let end = run_ints(&prog, &[x, y], 20_000);
            assert_eq!(loops(&end), 3 * x == 10 * y, "x = {x}, y = {y}: {end:?}");
        }
    }
}
