//! Conversions ([B] §3.4): `zext` keeps the unsigned reading, `sext` the signed one, `trunc`
//! is `v = t` when `t` is entailed in the target range, else the modulo relation
//! `v = t − k·2ᵐ`; copies keep the value.

use super::{range, within, Exec, R};
use crate::state::{eq, Reading, State};
use symex_ir::{CastOp, Operand, Slot};
use symex_its::Poly;

pub fn cast(
    ex: &mut Exec,
    mut st: State,
    op: CastOp,
    from: u32,
    to: u32,
    dst: Slot,
    src: Operand,
) -> R<Vec<State>> {
    match op {
        CastOp::ZExt => {
            let v = ex.operand(&mut st, src, from, Reading::Unsigned)?;
            ex.bind(&mut st, dst, v, to, Reading::Unsigned);
        }
        CastOp::SExt => {
            let v = ex.operand(&mut st, src, from, Reading::Signed)?;
            ex.bind(&mut st, dst, v, to, Reading::Signed);
        }
        CastOp::Trunc => {
            let f = st.top().func;
            let reading = ex.class.reading(f, dst);
            let t = ex.operand(&mut st, src, from, reading)?;
            let (lo, hi) = range(to, reading);
            if let (Some(c), false) = (t.as_constant(), ex.sem.math_int) {
                let v = crate::state::convert_const(c, to, reading);
                ex.bind(&mut st, dst, Poly::constant(v), to, reading);
                return Ok(vec![st]);
            }
            let fits =
                ex.sem.math_int || within(&t, lo, hi).iter().all(|a| ex.kb.entails(&st.kb, a));
            if fits {
                ex.bind(&mut st, dst, t, to, reading);
            } else {
                let v = ex.fresh(&mut st, to, reading);
                let k = ex.fresh_int();
                let wrapped = t.sub(&Poly::var(k).scale(1i128 << to));
                st.kb.push(eq(&Poly::var(v), &wrapped));
                ex.bind(&mut st, dst, Poly::var(v), to, reading);
            }
        }
        _ => return Err(ex.unsupported(&st, "conversion between pointers and integers")),
    }
    Ok(vec![st])
}

pub fn copy(ex: &mut Exec, mut st: State, dst: Slot, src: Operand) -> R<Vec<State>> {
    let f = st.top().func;
    let Some(width) = ex.slot_width(f, dst) else {
        let p = super::memory::pointer(ex, &mut st, src)?;
        super::memory::set(&mut st, dst, p);
        return Ok(vec![st]);
    };
    let reading = ex.class.reading(f, dst);
    let v = ex.operand(&mut st, src, width, reading)?;
    ex.bind(&mut st, dst, v, width, reading);
    Ok(vec![st])
}
