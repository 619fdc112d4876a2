//! Pointers as integers (`ptrtoint`) and their differences (`p - q`, the `-ptrdiff` programs of
//! [L]'s benchmarks: `(void*)&h->next - (void*)&h->value` is the next field's offset).
//!
//! Addresses are not modelled (an allocation's position is unknown, [`crate::state`]), so a
//! `ptrtoint` gives a fresh variable — any value of the type, which every layout allows — and
//! [`Mem::addrs`](crate::state::Mem::addrs) remembers which pointer it is the address of. A
//! `sub` of two such addresses of the *same* object is the difference of their offsets, whatever
//! the object's address: `(b + o₁) − (b + o₂) = o₁ − o₂` (also modulo 2ⁿ). Of two different
//! objects it is undefined in C (C11 6.5.6p9) and depends on the layout: outside the fragment,
//! never a guessed value. Null is address 0.

use super::{range, within, Exec, R};
use crate::state::{ge_c, Ptr, Reading, State, Target, Val};
use symex_ir::{ArithFlags, Operand, Slot};

/// `dst = ptrtoint src` (`to` bits).
pub fn ptr_to_int(ex: &mut Exec, mut st: State, to: u32, dst: Slot, src: Operand) -> R<Vec<State>> {
    let p = super::memory::pointer(ex, &mut st, src)?;
    if p.target == Target::Null {
        ex.bind(&mut st, dst, p.off, to, Reading::Unsigned);
        return Ok(vec![st]);
    }
    let reading = ex.class.reading(st.top().func, dst);
    let v = ex.fresh(&mut st, to, reading);
    st.top_mut().regs.insert(dst, Val::Var(v));
    // A narrower integer keeps only the low bits of the address: its difference is no longer
    // the offsets' (beyond 2ⁿ), so it is not remembered.
    if to == 64 && matches!(p.target, Target::Alloc(_) | Target::List(_)) {
        st.mem.addrs.push((v, p));
    }
    Ok(vec![st])
}

/// The pointer whose address register `op` holds, if a `ptrtoint` made it.
fn address_of(st: &State, op: Operand) -> Option<Ptr> {
    let Operand::Slot(s) = op else { return None };
    let Some(Val::Var(v)) = st.top().regs.get(&s) else {
        return None;
    };
    st.mem
        .addrs
        .iter()
        .find(|(w, _)| w == v)
        .map(|(_, p)| p.clone())
}

/// Whether `lhs - rhs` subtracts two addresses ([`difference`] applies).
pub fn is_difference(st: &State, width: u32, lhs: Operand, rhs: Operand) -> bool {
    width == 64 && address_of(st, lhs).is_some() && address_of(st, rhs).is_some()
}

/// `dst = lhs - rhs` of two addresses: the offsets' difference within one object.
pub fn difference(
    ex: &mut Exec,
    st: State,
    flags: ArithFlags,
    dst: Slot,
    lhs: Operand,
    rhs: Operand,
) -> R<Vec<State>> {
    let (Some(p), Some(q)) = (address_of(&st, lhs), address_of(&st, rhs)) else {
        return Err(ex.unsupported(&st, "difference of values that are not both addresses"));
    };
    if p.target != q.target {
        return Err(ex.unsupported(
            &st,
            "difference of pointers into different objects (undefined in C: depends on the layout)",
        ));
    }
    let d = p.off.sub(&q.off);
    // Offsets are kept over ℤ: the difference must be a 64-bit value for `sub` to give it
    // unwrapped; `nuw` additionally needs it non-negative (else the result is poison).
    let (lo, hi) = range(64, Reading::Signed);
    let mut needed = within(&d, lo, hi);
    if flags.nuw() {
        needed.push(ge_c(&d, 0));
    }
    if !needed
        .iter()
        .all(|a| crate::state::const_truth(a).unwrap_or_else(|| ex.kb.entails(&st.kb, a)))
    {
        return Err(ex.unsupported(&st, "a pointer difference beyond the 64-bit range"));
    }
    let mut st = st;
    ex.bind(&mut st, dst, d, 64, Reading::Signed);
    Ok(vec![st])
}
