//! Rewrites of the integer operators (linear arithmetic). Folding that would leave the
//! `i128` range is not done: such terms stay symbolic and exact.

use crate::intern;
use crate::sort::Sort;
use crate::term::{Op, Term};

pub(super) fn build(op: Op, args: Vec<Term>) -> Term {
    let rewritten = match op {
        Op::IntAdd => add(&args[0], &args[1]),
        Op::IntSub => sub(&args[0], &args[1]),
        Op::IntMul => mul(&args[0], &args[1]),
        Op::IntNeg => (args[0].op() == &Op::IntNeg).then(|| args[0].arg(0).clone()),
        Op::IntDiv | Op::IntMod => division(&op, &args[0], &args[1]),
        Op::IntLe | Op::IntLt if args[0] == args[1] => Some(Term::bool(op == Op::IntLe)),
        _ => None,
    };
    rewritten.unwrap_or_else(|| {
        let sort = if matches!(op, Op::IntLe | Op::IntLt) {
            Sort::Bool
        } else {
            Sort::Int
        };
        intern::mk(op, sort, args)
    })
}

fn add(a: &Term, b: &Term) -> Option<Term> {
    let c = a.as_int()?;
    if c == 0 {
        return Some(b.clone());
    }
    if b.op() == &Op::IntAdd {
        let d = b.arg(0).as_int()?;
        return Some(Term::int(c.checked_add(d)?).iadd(b.arg(1)));
    }
    None
}

fn sub(a: &Term, b: &Term) -> Option<Term> {
    if a == b {
        return Some(Term::int(0));
    }
    if let Some(c) = b.as_int() {
        return Some(Term::int(c.checked_neg()?).iadd(a));
    }
    None
}

fn mul(a: &Term, b: &Term) -> Option<Term> {
    match a.as_int()? {
        0 => Some(a.clone()),
        1 => Some(b.clone()),
        -1 => Some(b.ineg()),
        _ => None,
    }
}

fn division(op: &Op, a: &Term, b: &Term) -> Option<Term> {
    match (op, b.as_int()?) {
        (Op::IntDiv, 1) => Some(a.clone()),
        (Op::IntDiv, -1) => Some(a.ineg()),
        (Op::IntMod, 1 | -1) => Some(Term::int(0)),
        _ => None,
    }
}

/// `=` on integers (`a` is the constant, if any): `c = d + x` becomes `c - d = x`.
pub(super) fn eq(args: Vec<Term>) -> Term {
    let (a, b) = (&args[0], &args[1]);
    if let (Some(c), Op::IntAdd) = (a.as_int(), b.op()) {
        if let Some(d) = b.arg(0).as_int() {
            if let Some(k) = c.checked_sub(d) {
                return Term::int(k).eq(b.arg(1));
            }
        }
    }
    intern::mk(Op::Eq, Sort::Bool, args)
}
