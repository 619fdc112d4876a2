//! Recursion by return summaries: answers checked against the reference interpreter on every
//! 8-bit input (a YES needs every run to end; a program with a looping input is never YES).

mod common;
use common::*;
use symex_engine::{End, Program};
use symex_term::rules::Semantics;
use symex_term::Answer;

const HEADER: &str = "extern unsigned char __VERIFIER_nondet_uchar(void);\n";

/// The inputs (of 256) on which `main` does not end normally: runs into the instruction
/// limit or dies of the recursion's depth (the interpreter's stack limit).
fn diverging(path: &std::path::Path, limit: u64) -> Vec<u8> {
    let prog = Program::new(load(path, false));
    (0..=255u8)
        .filter(|v| {
            let end = run_with(&prog, "in", vec![*v], limit);
            !matches!(end, End::Exit(_))
        })
        .collect()
}

/// `limit`: instructions per run, well above what an ending run needs.
fn check(body: &str, expected: Answer, limit: u64) -> symex_term::Report {
    let (_dir, path) = source(&format!("{HEADER}{body}\n"));
    let report = term(&path, Semantics::default());
    let bad = diverging(&path, limit);
    match report.answer {
        Answer::Yes => assert!(bad.is_empty(), "YES but {bad:?} diverge: {body}"),
        Answer::No => {
            let w = report.witness.as_ref().expect("a witness");
            assert!(
                bad.contains(&(w.inputs[0].2 as u8)),
                "NO, but the witness ends: {body}"
            );
        }
        Answer::Maybe => {}
    }
    assert_eq!(report.answer, expected, "{:?}: {body}", report.reason);
    report
}

#[test]
fn recursion_on_a_decreasing_argument_terminates() {
    // Self-recursion: the call head's transition decreases x.
    check(
        "unsigned count(unsigned char x) { if (x == 0) return 0; return count(x - 1) + 1; }\n\
         int main(void) { unsigned char x = __VERIFIER_nondet_uchar(); return (int)count(x); }",
        Answer::Yes,
        300_000,
    );
    // Mutual recursion through two call heads.
    check(
        "int odd(unsigned char x);\n\
         int even(unsigned char x) { if (x == 0) return 1; return odd(x - 1); }\n\
         int odd(unsigned char x) { if (x == 0) return 0; return even(x - 1); }\n\
         int main(void) { return even(__VERIFIER_nondet_uchar()); }",
        Answer::Yes,
        300_000,
    );
}

#[test]
fn the_summary_bounds_the_result_the_caller_loops_on() {
    // `dec(x) ≤ x − 1` for the calls made (x ≥ 1, a fact of dec's call head): the loop in
    // main decreases x through the summary, and `dec(x − 1) + 1` cannot overflow.
    // From x = 255 the loop runs about 3·10⁵ instructions.
    let r = check(
        "int dec(int x) { if (x < 2) return 0; return dec(x - 1) + 1; }\n\
         int main(void) { int x = __VERIFIER_nondet_uchar(); while (x > 0) x = dec(x); return 0; }",
        Answer::Yes,
        3_000_000,
    );
    assert!(r.memory_safe);
}

#[test]
fn recursion_that_may_not_end_is_never_yes() {
    // Even x never reaches 3 by steps of 2 (mod 256): an infinite descent.
    check(
        "void f(unsigned char x) { if (x != 3) f(x + 2); }\n\
         int main(void) { f(__VERIFIER_nondet_uchar()); return 0; }",
        Answer::Maybe,
        300_000,
    );
    // The result feeds a loop: `id` returns its argument, so `while (id(x) != 0) x += 2`
    // does not end for odd x (a concrete run repeats its state: NO, never YES).
    check(
        "unsigned char id(unsigned char x) { if (x == 0) return 0; return id(x - 1) + 1; }\n\
         int main(void) { unsigned char x = __VERIFIER_nondet_uchar(); while (id(x) != 0) x += 2; return 0; }",
        Answer::No,
        300_000,
    );
}

#[test]
fn recursion_on_literals_is_run_concretely() {
    // fib(6) is evaluated call by call (no summary needed for the sum's overflow check).
    check(
        "int fib(int n) { if (n < 1) return 0; if (n == 1) return 1; return fib(n - 1) + fib(n - 2); }\n\
         int main(void) { unsigned char x = __VERIFIER_nondet_uchar(); while (x > fib(6)) x--; return 0; }",
        Answer::Yes,
        300_000,
    );
}
