//! Relations between registers kept by generalization at loop heads: a loop that decrements
//! `k` while `i` grows by 2 cannot overflow `k` only because `k + i ≥ n` holds at the head (an
//! interval for `k` alone is unbounded below). The YES is re-run on the reference interpreter.

mod common;
use common::*;
use symex_term::rules::Semantics;
use symex_term::{validate, Answer};

const SRC: &str = "extern int __VERIFIER_nondet_int(void);\n\
    int main(void) { int n = __VERIFIER_nondet_int(); if (n > 1000000) return 0;\n\
    int k = n, i = 0; while (i < n) { k--; i = i + 2; } return k; }\n";

#[test]
fn a_sum_relation_excludes_the_overflow() {
    let (_dir, path) = source(SRC);
    let r = term(&path, Semantics::default());
    assert_eq!(r.answer, Answer::Yes, "{:?}", r.reason);
    assert!(r.memory_safe);
    // Some head fact relates three registers (`k + i ≥ n` or an equivalent).
    let seg = r.seg.as_ref().expect("a SEG");
    assert!(
        seg.heads
            .iter()
            .flat_map(|h| &h.facts)
            .any(|f| f.poly.vars().len() == 3),
        "{}",
        symex_term::seg::describe(seg)
    );
    // Concrete runs (boundary and random inputs, overflow checks on) end without UB.
    let c = validate::check(&load(&path, false), &options(Semantics::default()), &r, 20);
    assert!(c.contradiction.is_none(), "{}", c.summary());
    assert!(c.finished > 0);
}
