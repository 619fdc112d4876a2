//! Guard splitting at loop heads (`guard_split.rs`) and the shared-range facts of memory
//! cells, each against the reference interpreter: a YES must agree with every input of a
//! box (brute force, overflow checks on), and a mutant whose undefined behaviour or
//! non-termination is in reach must not be proved (the interpreter reaches it).

mod common;
use common::*;
use symex_engine::{End, Program};
use symex_term::rules::Semantics;
use symex_term::Answer;

const HEADER: &str = "extern int __VERIFIER_nondet_int(void);\n";

/// Runs `main` on one 32-bit input per `__VERIFIER_nondet_int` call, in order.
fn run_ints(prog: &Program, inputs: &[i32], limit: u64) -> End {
    let named = inputs
        .iter()
        .enumerate()
        .map(|(i, v)| (format!("in{i}"), v.to_le_bytes().to_vec()))
        .collect();
    run_named(prog, named, limit)
}

fn analyse(body: &str) -> (tempfile::TempDir, std::path::PathBuf, symex_term::Report) {
    let (dir, path) = source(&format!("{HEADER}{body}\n"));
    let r = term(&path, Semantics::default());
    (dir, path, r)
}

/// Every input tuple ends normally (no UB, no instruction limit).
fn assert_all_end(path: &std::path::Path, inputs: impl Iterator<Item = Vec<i32>>) {
    let prog = Program::new(load(path, false));
    let mut n = 0;
    for i in inputs {
        let end = run_ints(&prog, &i, 200_000);
        assert!(matches!(end, End::Exit(_)), "inputs {i:?}: {end:?}");
        n += 1;
    }
    assert!(n > 0);
}

/// The loop leaves at `x = 0`; once those arrivals are exits, the head keeps `1 ≤ x ≤ a`
/// and so `a ≥ 1`, which excludes the overflow of `a--` (a single state merging `x = 0`
/// loses `a ≥ 1`, and `a` is then unbounded below).
const EXIT_CASE: &str =
    "int main(void) { int x = __VERIFIER_nondet_int(), a = __VERIFIER_nondet_int();\n\
    if (a <= 0) return 0;\n\
    while (x > 0) { a--; x = x & a; } return 0; }";

#[test]
fn the_exit_case_no_longer_weakens_the_head() {
    let (_dir, path, r) = analyse(EXIT_CASE);
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    let seg = r.seg.as_ref().expect("a SEG");
    assert!(
        seg.heads.iter().any(|h| !h.split.is_empty()),
        "{}",
        symex_term::seg::describe(seg)
    );
    let boxed = (-40..=40).flat_map(|x| (1..=40).map(move |a| vec![x, a]));
    let edges = [i32::MAX, i32::MAX - 1, 1 << 30, 1].into_iter();
    let edges = edges.flat_map(|x| [1, 2, 1000].map(|a| vec![x, a]));
    assert_all_end(&path, boxed.chain(edges));
}

#[test]
fn without_a_positive_the_decrement_overflows() {
    let mutant = EXIT_CASE.replace("if (a <= 0) return 0;", "");
    let (_dir, path, r) = analyse(&mutant);
    assert_ne!(r.answer, Answer::Yes, "{:?}", r.reason);
    let prog = Program::new(load(&path, false));
    let end = run_ints(&prog, &[5, i32::MIN], 100_000);
    assert!(matches!(end, End::Bug(_)), "{end:?}");
}

/// Two phases that never meet: `x > 0` masks `x` with the falling `a` (`0 ≤ x ≤ a`), `x < 0`
/// counts `x` up to 0 while `a` falls with it (`a + x` constant, so `a ≥ smin + 31` while
/// `x ≤ 0`). Neither fact holds for the other phase's arrivals: one general state merging
/// both loses the lower bound of `a`, and `a--` may overflow. Runs from `x = smin` take 2³¹
/// iterations, so the oracle is a box of inputs and the positive edge.
const PHASES: &str = "int main(void) { int x = __VERIFIER_nondet_int(); int a = 30;\n\
    while (x != 0) { a = a - 1; if (x > 0) x = x & a; else x = x + 1; } return a; }";

#[test]
fn each_guard_case_keeps_its_own_invariant() {
    let (_dir, path, r) = analyse(PHASES);
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    let seg = r.seg.as_ref().expect("a SEG");
    let split = seg.heads.iter().filter(|h| !h.split.is_empty()).count();
    assert!(split >= 2, "{}", symex_term::seg::describe(seg));
    let edges = [i32::MAX, i32::MAX - 1, 1 << 30, -10_000].map(|x| vec![x]);
    assert_all_end(&path, (-400..=400).map(|x| vec![x]).chain(edges));
}

#[test]
fn a_phase_that_overflows_is_not_proved() {
    // `a` starts near INT_MIN: `x = -400` takes it past.
    let mutant = PHASES.replace("int a = 30;", "int a = -2147483647 + 300;");
    let (_dir, path, r) = analyse(&mutant);
    assert_ne!(r.answer, Answer::Yes, "{:?}", r.reason);
    let prog = Program::new(load(&path, false));
    let end = run_ints(&prog, &[-400], 100_000);
    assert!(matches!(end, End::Bug(_)), "{end:?}");
}

/// A global `int v` halved after `v >= 0`: the cell's unsigned reading keeps `v ≤ smax` at
/// the head (both readings agree there), without which `v` may be negative, where `v >>= 1`
/// never reaches 0.
/// (`z = v & 1` and `n + z` in unsigned globals make the loaded `v` unsigned.)
const HALVE: &str = "int v; unsigned n, z;\n\
    int main(void) { v = __VERIFIER_nondet_int(); if (v >= 0) {\n\
    for (n = 0; v; v >>= 1) { z = v & 1; n = n + z; } return z; } return 1; }";

#[test]
fn a_cell_keeps_the_range_both_readings_share() {
    let (_dir, path, r) = analyse(HALVE);
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    // Proved by the plain heads (the guard-split retry would find `v ≥ 1` on its own).
    let seg = r.seg.as_ref().expect("a SEG");
    assert!(
        seg.heads.iter().all(|h| h.split.is_empty()),
        "{}",
        symex_term::seg::describe(seg)
    );
    let edges = [i32::MIN, -1, i32::MAX, i32::MAX - 1, 1 << 30].map(|v| vec![v]);
    assert_all_end(&path, (-300..=300).map(|v| vec![v]).chain(edges));
}

#[test]
fn a_negative_cell_is_not_proved() {
    let mutant = HALVE.replace("if (v >= 0) ", "");
    let (_dir, path, r) = analyse(&mutant);
    assert_ne!(r.answer, Answer::Yes, "{:?}", r.reason);
    let prog = Program::new(load(&path, false));
    assert!(loops(&run_ints(&prog, &[-1], 100_000)));
}
