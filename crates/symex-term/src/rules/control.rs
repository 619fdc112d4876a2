//! `br`, `switch` (refinement on the condition), the phi moves of the taken edge (a parallel
//! assignment), `ret` (back to the caller, or the end of the path) and `unreachable` (ERR).

use super::{Exec, Outcome};
use crate::state::{eq, ge, Reading, State};
use symex_ir::{Edge, Terminator};
use symex_its::Poly;

pub fn terminator(ex: &mut Exec, mut st: State, term: &Terminator) -> Outcome {
    match term {
        Terminator::Br(e) => edge(ex, st, e),
        Terminator::CondBr {
            cond,
            if_true,
            if_false,
        } => {
            let c = match ex.operand(&mut st, *cond, 1, Reading::Unsigned) {
                Ok(c) => c,
                Err(o) => return o,
            };
            let cases = vec![
                (vec![eq(&c, &Poly::constant(1))], if_true),
                (vec![eq(&c, &Poly::constant(0))], if_false),
            ];
            many(ex, st, cases)
        }
        Terminator::Switch(sw) => {
            let v = match ex.operand(&mut st, sw.value, sw.width, Reading::Unsigned) {
                Ok(v) => v,
                Err(o) => return o,
            };
            let mut values: Vec<i128> = sw.cases.iter().map(|c| c.0 as i128).collect();
            let mut cases: Vec<(Vec<symex_its::Atom>, &Edge)> = sw
                .cases
                .iter()
                .map(|(c, e)| (vec![eq(&v, &Poly::constant(*c as i128))], e))
                .collect();
            // The default edge: one interval between each two neighbouring case values.
            values.sort_unstable();
            values.dedup();
            let mut lo: Option<i128> = None;
            for c in values.iter().copied().chain([i128::MAX]) {
                let mut cond = Vec::new();
                if let Some(l) = lo {
                    cond.push(ge(&v, &Poly::constant(l)));
                }
                if c != i128::MAX {
                    cond.push(ge(&Poly::constant(c - 1), &v));
                }
                cases.push((cond, &sw.default));
                lo = Some(c.saturating_add(1));
            }
            many(ex, st, cases)
        }
        Terminator::Ret(val) => ret(ex, st, *val),
        Terminator::Unreachable => ex.err(&st, "`unreachable` reached (undefined behaviour)"),
    }
}

fn many(ex: &mut Exec, st: State, cases: Vec<(Vec<symex_its::Atom>, &Edge)>) -> Outcome {
    let mut out = Vec::new();
    for (s, e) in ex.split(st, cases) {
        match edge(ex, s, e) {
            Outcome::Next(v) => out.extend(v),
            other => return other,
        }
    }
    Outcome::Next(out)
}

/// Takes `e`: the phi moves read every source before writing any destination.
fn edge(ex: &mut Exec, mut st: State, e: &Edge) -> Outcome {
    let f = st.top().func;
    let mut vals = Vec::new();
    let mut ptrs = Vec::new();
    for m in e.moves.iter() {
        let Some(width) = ex.slot_width(f, m.dst) else {
            match super::memory::pointer(ex, &mut st, m.src) {
                Ok(p) => ptrs.push((m.dst, p)),
                Err(o) => return o,
            }
            continue;
        };
        let reading = ex.class.reading(f, m.dst);
        match ex.operand(&mut st, m.src, width, reading) {
            Ok(v) => vals.push((m.dst, v, width, reading)),
            Err(o) => return o,
        }
    }
    for (dst, v, width, reading) in vals {
        ex.bind(&mut st, dst, v, width, reading);
    }
    for (dst, p) in ptrs {
        super::memory::set(&mut st, dst, p);
    }
    let top = st.top_mut();
    top.block = e.to;
    top.idx = 0;
    st.arrived = ex.heads.contains(&(f, e.to));
    Outcome::Next(vec![st])
}

fn ret(ex: &mut Exec, mut st: State, val: Option<symex_ir::Operand>) -> Outcome {
    if st.frames.len() == 1 {
        if let Err(o) = super::recursion::record_return(ex, &mut st, val) {
            return o;
        }
        return Outcome::Done(Box::new(st));
    }
    let ret_to = st.top().ret_to;
    let caller = st.frames[st.frames.len() - 2].func;
    let value = match (val, ret_to) {
        (Some(op), Some(dst)) => {
            let Some(width) = ex.slot_width(caller, dst) else {
                let p = match super::memory::pointer(ex, &mut st, op) {
                    Ok(p) => p,
                    Err(o) => return o,
                };
                st.frames.pop();
                super::alloc::pop_frame(&mut st);
                super::memory::set(&mut st, dst, p);
                st.top_mut().idx += 1;
                return Outcome::Next(vec![st]);
            };
            let reading = ex.class.reading(caller, dst);
            match ex.operand(&mut st, op, width, reading) {
                Ok(v) => Some((dst, v, width, reading)),
                Err(o) => return o,
            }
        }
        _ => None,
    };
    st.frames.pop();
    super::alloc::pop_frame(&mut st);
    if let Some((dst, v, width, reading)) = value {
        ex.bind(&mut st, dst, v, width, reading);
    }
    st.top_mut().idx += 1;
    Outcome::Next(vec![st])
}
