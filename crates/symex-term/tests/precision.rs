//! Three precision rules, each against the reference interpreter:
//!
//! * **corner facts** at loop heads (`x − z ≥ lx − uz` from the arrival's bounds): `z--` cannot
//!   overflow only because `z` falls with `x` (`x > 0` in the loop); without the lower bound
//!   on `z` the same loop overflows, and the analysis must not prove it;
//! * **speculated arithmetic**: simplifycfg computes both arms of `y > 0 ? x − y : x − 1`; the
//!   unselected `x − y` may overflow (poison nobody reads), the selected one must not;
//! * **exact reading conversions**: `sig(~y) = ~y − 2³²` for `y > 0`, so `x = ~y` ends the loop
//!   (SV-COMP's termination-bwb/not-04), checked on all 65536 pairs of 8-bit inputs.

mod common;
use common::*;
use symex_engine::{End, Program};
use symex_term::rules::Semantics;
use symex_term::{validate, Answer};

/// Runs `main` on one 32-bit input per `__VERIFIER_nondet_*` call, in order.
fn run_ints(prog: &Program, inputs: &[i32], limit: u64) -> End {
    let bytes = inputs.iter().map(|v| v.to_le_bytes().to_vec()).collect();
    run_bytes(prog, bytes, limit)
}

/// Runs `main` on the inputs' bytes (one entry per `__VERIFIER_nondet_*` call, in order).
fn run_bytes(prog: &Program, inputs: Vec<Vec<u8>>, limit: u64) -> End {
    let named = inputs
        .into_iter()
        .enumerate()
        .map(|(i, bytes)| (format!("in{i}"), bytes))
        .collect();
    run_named(prog, named, limit)
}

/// A YES must survive the interpreter's boundary and random runs (overflow checks on).
fn assert_checked_yes(src: &str) -> symex_term::Report {
    let (_dir, path) = source(src);
    let r = term(&path, Semantics::default());
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    assert!(r.memory_safe);
    let c = validate::check(&load(&path, false), &options(Semantics::default()), &r, 20);
    assert!(c.contradiction.is_none(), "{}", c.summary());
    assert!(c.finished > 0, "{}", c.summary());
    r
}

/// Not YES, and the interpreter reaches undefined behaviour on `inputs`.
fn assert_ub_not_proved(src: &str, inputs: &[i32]) {
    let (_dir, path) = source(src);
    let r = term(&path, Semantics::default());
    assert_ne!(r.answer, Answer::Yes, "{:?}", r.reason);
    let prog = Program::new(load(&path, false));
    let end = run_ints(&prog, inputs, 100_000);
    assert!(matches!(end, End::Bug(_)), "{end:?}");
}

const CORNER: &str = "extern int __VERIFIER_nondet_int(void);\n\
    int main(void) { int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();\n\
    int z = __VERIFIER_nondet_int(); if (z < 1) return 0;\n\
    while (x > 0 && y > 0) { if (__VERIFIER_nondet_int()) { x = x - 1; z = z - 1; } else y = y - 1; }\n\
    return z; }\n";

#[test]
fn a_corner_fact_excludes_the_overflow() {
    let r = assert_checked_yes(CORNER);
    // Some head fact relates two registers with a constant from the bounds (`z − x ≥ 1 − smax`).
    let seg = r.seg.as_ref().expect("a SEG");
    assert!(
        seg.heads
            .iter()
            .flat_map(|h| &h.facts)
            .any(|f| f.poly.vars().len() == 2 && f.poly.constant_term().abs() > 1 << 30),
        "{}",
        symex_term::seg::describe(seg)
    );
    // Without `z ≥ 1`, z = INT_MIN overflows at the first `z − 1`.
    let unbounded = CORNER.replace("if (z < 1) return 0;", "");
    assert_ub_not_proved(&unbounded, &[1, 1, i32::MIN, 1]);
}

const SPECULATED: &str = "extern int __VERIFIER_nondet_int(void);\n\
    int main(void) { int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();\n\
    while (x > 0) { if (y > 0) x = x - y; else x = x - 1; } return 0; }\n";

#[test]
fn an_unselected_overflow_is_not_undefined_behaviour() {
    assert_checked_yes(SPECULATED);
    // The runs the rule is about: `x − y` would overflow, the select takes `x − 1`.
    let (_dir, path) = source(SPECULATED);
    let prog = Program::new(load(&path, false));
    for (x, y) in [(3, i32::MIN), (1, i32::MIN), (5, -7), (i32::MAX, i32::MAX)] {
        let end = run_ints(&prog, &[x, y], 1_000);
        assert!(
            !matches!(end, End::Bug(_)) && !loops(&end),
            "{x}, {y}: {end:?}"
        );
    }
    // The same overflow in the selected arm is undefined behaviour: x = INT_MAX, y = −1.
    let selected = SPECULATED.replace("if (y > 0)", "if (y < 0)");
    assert_ub_not_proved(&selected, &[i32::MAX, -1]);
}

const NOT: &str = "extern signed char __VERIFIER_nondet_char(void);\n\
    int main(void) { int x = __VERIFIER_nondet_char(), y = __VERIFIER_nondet_char();\n\
    while (y != 0) { if (x <= 0 || y <= 0) y = 0; else x = ~y; } return 0; }\n";

#[test]
fn a_bitwise_not_is_converted_exactly() {
    let (_dir, path) = source(NOT);
    let r = term(&path, Semantics::default());
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    let prog = Program::new(load(&path, false));
    for x in i8::MIN..=i8::MAX {
        for y in i8::MIN..=i8::MAX {
            let end = run_bytes(&prog, vec![vec![x as u8], vec![y as u8]], 10_000);
            assert!(
                !loops(&end) && !matches!(end, End::Bug(_)),
                "{x}, {y}: {end:?}"
            );
        }
    }
}

const LADDER: &str = "extern unsigned __VERIFIER_nondet_uint(void);\n\
    int main(void) { unsigned n = __VERIFIER_nondet_uint(); if (n > 1000) return 0;\n\
    unsigned s = 0; for (unsigned a = 0; a < n; a++) for (unsigned b = 0; b < n; b++)\n\
    s = s + a * 4000000 + b; return s; }\n";

/// Literal ladders (`b ≤ 0`, `b ≤ 1`, `b ≤ 999`, …) are widened in one round, and the bound
/// the guard re-establishes (`b ≤ 1000`, through `b < n ≤ 1000`) stays: 16 SEG rounds
/// without the widening, 11 with it (measured).
#[test]
fn literal_ladders_fall_at_once() {
    let r = assert_checked_yes(LADDER);
    let seg = r.seg.as_ref().expect("a SEG");
    assert!(seg.rounds <= 12, "{} rounds", seg.rounds);
    let inner = seg
        .heads
        .iter()
        .max_by_key(|h| h.slots.len())
        .expect("heads");
    let bounded = inner
        .facts
        .iter()
        .filter(|f| f.poly.vars().len() == 1 && f.poly.constant_term() == 1000)
        .count();
    assert!(bounded >= 2, "{}", symex_term::seg::describe(seg));
}

const AFFINE: &str = "extern unsigned __VERIFIER_nondet_uint(void);\n\
    int main(void) { int n = __VERIFIER_nondet_uint(); if (n <= 0 || n > 100000) return 0;\n\
    int a[n]; int j = n - 1; for (int i = 0; i < n; i++) { a[j] = i; j--; } return a[0]; }\n";

/// `i + j − n = −1` holds at the first arrival and is kept: `a[j]` stays in bounds only by it
/// (`j = n − 1 − i ≥ 0` from `i < n`). Starting at `j = n` writes `a[n]`, which the
/// interpreter reports, and the analysis must not prove.
#[test]
fn an_affine_equality_keeps_the_index_in_bounds() {
    let r = assert_checked_yes(AFFINE);
    let seg = r.seg.as_ref().expect("a SEG");
    assert!(
        seg.heads
            .iter()
            .flat_map(|h| &h.facts)
            .any(|f| f.poly.vars().len() == 3 && f.poly.constant_term().abs() == 1),
        "{}",
        symex_term::seg::describe(seg)
    );
    let off_by_one = AFFINE.replace("int j = n - 1;", "int j = n;");
    assert_ub_not_proved(&off_by_one, &[3]);
}

const PEEL: &str = "extern int __VERIFIER_nondet_int(void);\n\
    int main(void) { int b = 30; int x = __VERIFIER_nondet_int();\n\
    while (x > 0) { b = b | (b + 1); x = x - b; } return 0; }\n";

/// SV-COMP's termination-bwb/or-02: the first arrival (`b = 30` literal) is peeled, so the
/// head is built from the second, where `x + b ≤ smax` holds (an in-range candidate) and
/// excludes the overflow of `b + 1` while `x > 0`; `b | (b + 1)` of non-negative operands is
/// non-negative, so `x − b` cannot overflow either. When `x` falls by one instead, `b` reaches
/// `INT_MAX` and `b + 1` overflows (x = INT_MAX): not proved.
#[test]
fn a_peeled_iteration_gives_the_relation() {
    assert_checked_yes(PEEL);
    let slow = PEEL.replace("x = x - b;", "x = x - 1;");
    assert_ub_not_proved(&slow, &[i32::MAX]);
}
