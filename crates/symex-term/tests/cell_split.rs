//! Loads at a symbolic offset split on a cell they may read (`rules/cell_split.rs`): a
//! search for a sentinel stored at the array's end is bounded by it. Checked on the
//! reference interpreter (overflow and bounds checks on): the YES program ends on every
//! input vector tried, the mutant without the sentinel reads out of bounds and is not proved.

mod common;
use common::*;
use symex_engine::{End, Program};
use symex_term::rules::Semantics;
use symex_term::Answer;

const SENTINEL: &str = "extern int __VERIFIER_nondet_int(void);\n\
    int main(void) { int A[48]; int i;\n\
    for (i = 0; i < 47; i++) A[i] = __VERIFIER_nondet_int();\n\
    A[47] = 0;\n\
    for (i = 0; A[i] != 0; i++) {}\n\
    return i; }\n";

/// 47 inputs: all non-zero (the search runs to the sentinel), or one zero at `z`.
fn inputs(zero_at: Option<usize>, fill: i32) -> Vec<(String, Vec<u8>)> {
    (0..47)
        .map(|k| {
            let v = if Some(k) == zero_at { 0 } else { fill };
            (format!("in{k}"), v.to_le_bytes().to_vec())
        })
        .collect()
}

#[test]
fn a_sentinel_bounds_the_search() {
    let (_dir, path) = source(SENTINEL);
    let r = term(&path, Semantics::default());
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    assert!(r.memory_safe);
    let prog = Program::new(load(&path, false));
    let vectors = [None, Some(0), Some(20), Some(46)]
        .into_iter()
        .flat_map(|z| [1, -1, i32::MAX, i32::MIN].map(move |f| (z, f)));
    for (z, f) in vectors {
        let end = run_named(&prog, inputs(z, f), 100_000);
        assert!(
            matches!(end, End::Exit(_)),
            "zero at {z:?}, fill {f}: {end:?}"
        );
    }
}

#[test]
fn without_the_sentinel_the_search_overruns() {
    let mutant = SENTINEL.replace("A[47] = 0;", "A[47] = 1;");
    let (_dir, path) = source(&mutant);
    let r = term(&path, Semantics::default());
    assert_ne!(r.answer, Answer::Yes, "{:?}", r.reason);
    let prog = Program::new(load(&path, false));
    let end = run_named(&prog, inputs(None, 1), 100_000);
    assert!(matches!(end, End::Bug(_)), "{end:?}");
}
