//! Rewrites of the Boolean connectives. Arguments arrive sort-checked, not all constant,
//! and for commutative operators with any constant first.

use crate::intern;
use crate::sort::Sort;
use crate::term::{Op, Term};

pub(super) fn build(op: Op, args: Vec<Term>) -> Term {
    match op {
        Op::Not => not(&args[0]),
        Op::And => and(&args[0], &args[1]),
        Op::Or => or(&args[0], &args[1]),
        Op::Xor => xor(&args[0], &args[1]),
        Op::Implies => args[0].not().or(&args[1]),
        _ => unreachable!("{op:?} is not a Boolean connective"),
    }
}

fn mk(op: Op, args: Vec<Term>) -> Term {
    intern::mk(op, Sort::Bool, args)
}

/// Whether `a` is `not b` or `b` is `not a`.
fn complementary(a: &Term, b: &Term) -> bool {
    (a.op() == &Op::Not && a.arg(0) == b) || (b.op() == &Op::Not && b.arg(0) == a)
}

fn not(a: &Term) -> Term {
    if a.op() == &Op::Not {
        return a.arg(0).clone();
    }
    mk(Op::Not, vec![a.clone()])
}

fn and(a: &Term, b: &Term) -> Term {
    if let Some(c) = a.as_bool() {
        return if c { b.clone() } else { Term::ff() };
    }
    if a == b {
        return a.clone();
    }
    if complementary(a, b) {
        return Term::ff();
    }
    mk(Op::And, vec![a.clone(), b.clone()])
}

fn or(a: &Term, b: &Term) -> Term {
    if let Some(c) = a.as_bool() {
        return if c { Term::tt() } else { b.clone() };
    }
    if a == b {
        return a.clone();
    }
    if complementary(a, b) {
        return Term::tt();
    }
    mk(Op::Or, vec![a.clone(), b.clone()])
}

fn xor(a: &Term, b: &Term) -> Term {
    if let Some(c) = a.as_bool() {
        return if c { b.not() } else { b.clone() };
    }
    if a == b {
        return Term::ff();
    }
    if complementary(a, b) {
        return Term::tt();
    }
    mk(Op::Xor, vec![a.clone(), b.clone()])
}

/// `=` on Booleans (`a` is the constant, if any).
pub(super) fn eq(args: Vec<Term>) -> Term {
    let (a, b) = (&args[0], &args[1]);
    if let Some(c) = a.as_bool() {
        return if c { b.clone() } else { b.not() };
    }
    if complementary(a, b) {
        return Term::ff();
    }
    mk(Op::Eq, args)
}

/// `ite` with Boolean branches, as connectives when one branch is a constant or the
/// condition itself.
pub(super) fn ite_bool(c: &Term, t: &Term, e: &Term) -> Term {
    match (t.as_bool(), e.as_bool()) {
        (Some(true), _) => return c.or(e),
        (Some(false), _) => return c.not().and(e),
        (_, Some(true)) => return c.not().or(t),
        (_, Some(false)) => return c.and(t),
        _ => {}
    }
    if c == t {
        return c.or(e);
    }
    if c == e {
        return c.and(t);
    }
    mk(Op::Ite, vec![c.clone(), t.clone(), e.clone()])
}
