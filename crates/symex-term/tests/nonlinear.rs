//! Products of two variables, shifts by a variable and division by a variable: answers
//! checked against the reference interpreter on a grid of two 8-bit inputs.

mod common;
use common::*;
use symex_engine::{End, Program};
use symex_term::rules::Semantics;
use symex_term::{validate, Answer};

const HEADER: &str = "extern unsigned char __VERIFIER_nondet_uchar(void);\n\
                      extern int __VERIFIER_nondet_int(void);\n";

/// Every first input, with second inputs from boundary and small values.
const SECOND: &[u8] = &[0, 1, 2, 3, 5, 16, 100, 255];

/// The pairs of inputs whose run does not end normally (loops or hits undefined behaviour).
fn failing(path: &std::path::Path) -> Vec<(u8, u8)> {
    let prog = Program::new(load(path, false));
    let mut out = Vec::new();
    for a in 0..=255u8 {
        for &b in SECOND {
            let inputs = [a, b]
                .iter()
                .map(|v| ("__VERIFIER_nondet_uchar".to_string(), vec![*v]))
                .collect();
            if !matches!(run_named(&prog, inputs, 200_000), End::Exit(_)) {
                out.push((a, b));
            }
        }
    }
    out
}

fn check(body: &str, expected: Answer) -> symex_term::Report {
    let (_dir, path) = source(&format!("{HEADER}{body}\n"));
    let report = term(&path, Semantics::default());
    if report.answer == Answer::Yes {
        let bad = failing(&path);
        assert!(bad.is_empty(), "YES but {bad:?} do not end: {body}");
    }
    if report.answer == Answer::No {
        // The witness, replayed on the reference interpreter, runs into the instruction limit.
        let plain = load(&path, false);
        let c = validate::check(&plain, &options(Semantics::default()), &report, 0);
        assert_eq!(c.witness_replayed, Some(true), "{body}");
    }
    assert_eq!(report.answer, expected, "{:?}: {body}", report.reason);
    report
}

#[test]
fn product_of_two_variables_grows() {
    // x·y ≥ 2x for x ≥ 1, y ≥ 2 (McCormick), and x < 1000, y ≤ 255 cannot wrap.
    check(
        "int main(void) { unsigned x = __VERIFIER_nondet_uchar(), y = __VERIFIER_nondet_uchar();\n\
         if (x == 0 || y < 2) return 0; while (x < 1000) x = x * y; return 0; }",
        Answer::Yes,
    );
    // The same with `int` (`mul nsw`): the operands' bounds exclude the overflow.
    check(
        "int main(void) { int x = __VERIFIER_nondet_uchar(), y = __VERIFIER_nondet_uchar();\n\
         if (x == 0 || y < 2) return 0; while (x < 1000) x = x * y; return 0; }",
        Answer::Yes,
    );
}

#[test]
fn signed_product_that_may_overflow_is_err() {
    // y is any int: x·y may overflow (undefined behaviour), so no YES.
    let r = check(
        "int main(void) { int x = __VERIFIER_nondet_uchar(), y = __VERIFIER_nondet_int();\n\
         if (y < 2) return 0; while (x > 0 && x < 1000) x = x * y; return 0; }",
        Answer::Maybe,
    );
    assert!(!r.memory_safe);
    assert!(r.reason.unwrap_or_default().contains("overflow"));
}

#[test]
fn shift_by_a_variable_and_division_by_a_variable() {
    // s ∈ [1, 4]: x << s ≥ 2x, below 2³² for x < 10⁵.
    check(
        "int main(void) { unsigned x = __VERIFIER_nondet_uchar(), s = __VERIFIER_nondet_uchar() % 4 + 1;\n\
         while (x > 0 && x < 100000) x = x << s; return 0; }",
        Answer::Yes,
    );
    // d ≥ 2: x / d ≤ x / 2 < x for x ≥ 1.
    check(
        "int main(void) { unsigned x = __VERIFIER_nondet_uchar(), d = __VERIFIER_nondet_uchar();\n\
         if (d < 2) return 0; while (x > 0) x = x / d; return 0; }",
        Answer::Yes,
    );
    // d = 1 is possible: x / d may stay x: no YES (the concrete run with d = 1 loops).
    check(
        "int main(void) { unsigned x = __VERIFIER_nondet_uchar(), d = __VERIFIER_nondet_uchar();\n\
         if (d < 1) return 0; while (x > 0) x = x / d; return 0; }",
        Answer::No,
    );
}
