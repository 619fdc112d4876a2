//! `icmp` evaluation and refinement ([B] §3.2: `v = 1` if `LV_u(t1) > LV_u(t2)` is entailed,
//! `0` if its negation is, else split the KB), and `select` (a decided condition, else split).

use super::{Exec, R};
use crate::state::{eq, ge, Reading, State};
use symex_ir::{IntPred, Operand, Slot};
use symex_its::Poly;

/// Whether the operand is a pointer (comparisons of addresses are outside the fragment).
fn is_pointer(ex: &Exec, st: &State, op: Operand) -> bool {
    match op {
        Operand::Slot(s) => ex.slot_width(st.top().func, s).is_none(),
        Operand::Const(c) => !matches!(ex.module.konst(c), symex_ir::Const::Int { .. }),
    }
}

pub fn icmp(
    ex: &mut Exec,
    mut st: State,
    pred: IntPred,
    width: u32,
    dst: Slot,
    lhs: Operand,
    rhs: Operand,
) -> R<Vec<State>> {
    if is_pointer(ex, &st, lhs) || is_pointer(ex, &st, rhs) {
        return super::memory::icmp(ex, st, pred, dst, lhs, rhs);
    }
    let f = st.top().func;
    let reading = match pred {
        IntPred::Sgt | IntPred::Sge | IntPred::Slt | IntPred::Sle => Reading::Signed,
        IntPred::Ugt | IntPred::Uge | IntPred::Ult | IntPred::Ule => Reading::Unsigned,
        // Equality holds in either reading: take the registers' own to avoid a conversion.
        IntPred::Eq | IntPred::Ne => match (lhs, rhs) {
            (Operand::Slot(s), _) | (_, Operand::Slot(s)) => ex.class.reading(f, s),
            _ => Reading::Unsigned,
        },
    };
    let a = ex.operand(&mut st, lhs, width, reading)?;
    let b = ex.operand(&mut st, rhs, width, reading)?;
    decide(ex, st, pred, dst, a, b)
}

/// `dst := a pred b` for values in the predicate's reading: evaluation, or refinement on
/// the cases `a > b`, `a = b`, `a < b`.
pub fn decide(
    ex: &mut Exec,
    st: State,
    pred: IntPred,
    dst: Slot,
    a: Poly,
    b: Poly,
) -> R<Vec<State>> {
    let one = Poly::constant(1);
    // (a > b, a = b, a < b) as atoms; the predicate's value in each of the three cases.
    let gt = vec![ge(&a, &b.add(&one))];
    let equal = vec![eq(&a, &b)];
    let lt = vec![ge(&b, &a.add(&one))];
    let (v_gt, v_eq, v_lt) = match pred {
        IntPred::Ugt | IntPred::Sgt => (1, 0, 0),
        IntPred::Uge | IntPred::Sge => (1, 1, 0),
        IntPred::Ult | IntPred::Slt => (0, 0, 1),
        IntPred::Ule | IntPred::Sle => (0, 1, 1),
        IntPred::Eq => (0, 1, 0),
        IntPred::Ne => (1, 0, 1),
    };
    // Merge neighbouring cases with equal values into one condition (`a ≥ b`, `a ≤ b`):
    // a conjunction per case keeps the KB a conjunction.
    let cases = if v_gt == v_eq {
        vec![(vec![ge(&a, &b)], v_gt), (lt, v_lt)]
    } else if v_eq == v_lt {
        vec![(gt, v_gt), (vec![ge(&b, &a)], v_lt)]
    } else {
        vec![(gt, v_gt), (equal, v_eq), (lt, v_lt)]
    };
    let mut out = Vec::new();
    for (mut s, v) in ex.split(st, cases) {
        ex.bind(&mut s, dst, Poly::constant(v), 1, Reading::Unsigned);
        out.push(s);
    }
    Ok(out)
}

pub fn select(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    cond: Operand,
    on_true: Operand,
    on_false: Operand,
) -> R<Vec<State>> {
    let f = st.top().func;
    let Some(width) = ex.slot_width(f, dst) else {
        return super::memory::select(ex, st, dst, cond, on_true, on_false);
    };
    let c = ex.operand(&mut st, cond, 1, Reading::Unsigned)?;
    let reading = ex.class.reading(f, dst);
    let cases = vec![
        (vec![eq(&c, &Poly::constant(1))], on_true),
        (vec![eq(&c, &Poly::constant(0))], on_false),
    ];
    let mut out = Vec::new();
    for (mut s, op) in ex.split(st, cases) {
        let v = ex.operand(&mut s, op, width, reading)?;
        ex.bind(&mut s, dst, v, width, reading);
        out.push(s);
    }
    Ok(out)
}
