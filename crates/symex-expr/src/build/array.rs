//! Rewrites of `select` and `store`: reading through stores at provably equal or provably
//! distinct indices, reading a constant array, and overwriting a store at the same index.

use crate::intern;
use crate::sort::Sort;
use crate::term::{Op, Term};

pub(super) fn build(op: Op, sort: Sort, args: Vec<Term>) -> Term {
    let rewritten = match op {
        Op::Select => select(&args[0], &args[1]),
        Op::Store => store(&args[0], &args[1], &args[2]),
        _ => None,
    };
    rewritten.unwrap_or_else(|| intern::mk(op, sort, args))
}

/// Whether two index terms certainly differ (distinct constants).
fn distinct(i: &Term, j: &Term) -> bool {
    i.is_const() && j.is_const() && i != j
}

fn select(a: &Term, i: &Term) -> Option<Term> {
    // Walk down a chain of stores at other constant indices without recursion.
    let mut arr = a;
    loop {
        match arr.op() {
            Op::Store if arr.arg(1) == i => return Some(arr.arg(2).clone()),
            Op::Store if distinct(arr.arg(1), i) => arr = arr.arg(0),
            Op::ConstArray => return Some(arr.arg(0).clone()),
            _ => break,
        }
    }
    if arr != a {
        return Some(arr.select(i));
    }
    None
}

fn store(a: &Term, i: &Term, v: &Term) -> Option<Term> {
    if a.op() == &Op::Store && a.arg(1) == i {
        return Some(a.arg(0).store(i, v));
    }
    if v.op() == &Op::Select && v.arg(0) == a && v.arg(1) == i {
        return Some(a.clone());
    }
    if a.op() == &Op::ConstArray && a.arg(0) == v {
        return Some(a.clone());
    }
    None
}
