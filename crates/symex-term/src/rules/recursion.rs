//! Recursion by return summaries (instead of `MAYBE`). A call of a function `F` on a cycle
//! of the call graph is not inlined; the state splits in two:
//!
//! * the **call**: a state with `F`'s frame alone at its entry, its parameters bound to the
//!   arguments. It arrives at `F`'s *call head* (key `[(F, entry)]`) and is closed there by a
//!   generalization edge with `μ(param) = argument`, like a loop head. In the ITS the call is a
//!   transition from the caller's location to `F`'s entry, so an infinite descent of calls is
//!   an infinite run of the ITS;
//! * the **return**: the caller goes on after the call with a fresh result `r` that satisfies
//!   `F`'s summary, linear facts over `F`'s parameters and `r` (`r ≥ c`, `r ≤ c` for `F`'s
//!   literals, `r ≤ p`, `r ≥ p ± 1`, …).
//!
//! The summary starts with every candidate fact; each return of `F`'s analysed body (a bottom
//! frame of `F` reaching `ret`) must entail it, else the facts it does not entail are dropped
//! and the SEG is rebuilt (facts only shrink: finite). The summary then holds for every
//! returning call by induction on the depth of the recursion: a return path's inner calls are
//! shallower. An infinite run of the program either recurses forever (infinitely many call
//! transitions) or stays in one activation forever (a cycle through loop heads), and both are
//! runs of the ITS, so the ITS's termination proves the program's.
//!
//! Summaries relate registers, so a callee that uses memory needs a reason why memory after
//! the call is what the caller's continuation assumes: readers (no writes) and builders (only
//! memory they allocate; a returned pointer is summarised as null or a new list) have one
//! ([`super::rec_memory`]); every other recursive call with memory stays `Unsupported`.
//! Concrete runs (non-termination witnesses) inline recursive calls as ordinary calls.

use super::{Exec, Outcome};
use crate::state::{ge, ge_c, le_c, Frame, Reading, State};
use rustc_hash::FxHashSet;
use std::collections::BTreeMap;
use symex_ir::{BlockId, Call, Callee, Const, FuncId, Inst, Module, Operand, Slot, Terminator};
use symex_its::{Atom, Poly};

/// The return summary of a recursive function: atoms over the variables `0..params` (the
/// parameters `Slot(i)` in their readings) and `params` (the returned value in `reading`).
#[derive(Clone, Debug)]
pub struct Summary {
    pub params: usize,
    pub width: u32,
    pub reading: Reading,
    pub atoms: Vec<Atom>,
    /// For a builder returning a pointer ([`super::rec_memory`]): its null and list returns.
    pub ptr: Option<super::rec_memory::PtrSummary>,
}

/// The functions on a cycle of the call graph (direct calls; a call through a pointer is
/// unsupported anyway).
pub fn recursive_functions(module: &Module) -> FxHashSet<FuncId> {
    let callees: Vec<Vec<FuncId>> = module
        .functions
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            for blk in f.body.iter().flat_map(|b| &b.blocks) {
                for inst in &blk.insts {
                    if let Inst::Call(c) = inst {
                        if let Callee::Direct(g) = c.callee {
                            out.push(g);
                        }
                    }
                }
            }
            out
        })
        .collect();
    let mut out = FxHashSet::default();
    for f in 0..module.functions.len() {
        let start = FuncId(f as u32);
        let mut seen = FxHashSet::default();
        let mut stack = callees[f].clone();
        while let Some(g) = stack.pop() {
            if g == start {
                out.insert(start);
                break;
            }
            if seen.insert(g) {
                stack.extend(callees[g.0 as usize].iter().copied());
            }
        }
    }
    out
}

/// The width and reading of `f`'s result: the reading of the first register it returns
/// (signed when it returns only literals).
fn result_type(ex: &Exec, f: FuncId) -> Option<(u32, Reading)> {
    let func = ex.module.func(f);
    let width = match ex.module.ty(func.ret).kind {
        symex_ir::TypeKind::Int(w) => w,
        _ => return None,
    };
    let body = func.body.as_ref()?;
    let reading = body
        .blocks
        .iter()
        .find_map(|b| match b.term {
            Terminator::Ret(Some(Operand::Slot(s))) => Some(ex.class.reading(f, s)),
            _ => None,
        })
        .unwrap_or(Reading::Signed);
    Some((width, reading))
}

/// The integer literals of `f` (and −1, 0, 1), read signed.
pub fn literals(module: &Module, f: FuncId) -> Vec<i128> {
    let mut lits: Vec<i128> = vec![-1, 0, 1];
    let mut add = |op: &Operand| {
        if let Operand::Const(c) = op {
            if let Const::Int { width, value } = module.konst(*c) {
                if (2..=64).contains(width) {
                    lits.push(crate::state::convert_const(
                        *value as i128,
                        *width,
                        Reading::Signed,
                    ));
                }
            }
        }
    };
    for blk in module.func(f).body.iter().flat_map(|b| &b.blocks) {
        blk.insts
            .iter()
            .for_each(|i| symex_ir::uses::inst_operands(i, &mut add));
        symex_ir::uses::terminator_operands(&blk.term, &mut add);
    }
    lits.sort_by_key(|v| (v.abs(), *v));
    lits.dedup();
    lits.truncate(12);
    lits
}

/// Every candidate fact of `f`'s summary (the optimistic start of the fixpoint).
fn candidates(ex: &Exec, f: FuncId, width: u32, reading: Reading) -> Summary {
    let params = ex.module.func(f).params.len();
    let r = Poly::var(params);
    let (lo, hi) = super::range(width, reading);
    let mut atoms = Vec::new();
    for c in literals(ex.module, f) {
        let c = if ex.sem.math_int {
            c
        } else {
            crate::state::convert_const(c, width, reading)
        };
        if ex.sem.math_int || c > lo {
            atoms.push(ge_c(&r, c));
        }
        if ex.sem.math_int || c < hi {
            atoms.push(le_c(&r, c));
        }
    }
    for i in 0..params {
        if ex.slot_width(f, Slot(i as u32)) != Some(width) {
            continue;
        }
        let p = Poly::var(i);
        for d in [-1, 0, 1] {
            let shifted = p.add(&Poly::constant(d));
            atoms.push(ge(&r, &shifted));
            atoms.push(ge(&shifted, &r));
        }
    }
    atoms.sort();
    atoms.dedup();
    Summary {
        params,
        width,
        reading,
        atoms,
        ptr: None,
    }
}

/// Whether `s` is a call of a recursive function at its entry (its call head): such an
/// arrival is always generalized (never run ahead or unrolled), so that every returning
/// path of the function is a path of its analysed body, where the summary is checked.
pub fn is_call_head(ex: &Exec, s: &State) -> bool {
    let [f] = &s.frames[..] else {
        return false;
    };
    f.block == BlockId(0) && f.idx == 0 && f.ret_to.is_none() && ex.recursive.contains(&f.func)
}

/// Calls on literal arguments a path inlines (like concrete loop iterations: precise, and
/// finite by the bound), counted in the state's `unrolled`.
const CONCRETE_CALLS: u32 = 300;

/// Whether the call of the recursive `fid` is inlined: every argument a literal, within the
/// path's budget and a stack depth of 64.
pub fn inline(ex: &Exec, st: &mut State, c: &Call, fid: FuncId) -> bool {
    if !ex.recursive.contains(&fid) || st.unrolled >= CONCRETE_CALLS || st.frames.len() >= 64 {
        return false;
    }
    let literal = |op: &Operand| match op {
        Operand::Const(k) => matches!(ex.module.konst(*k), Const::Int { .. }),
        Operand::Slot(s) => matches!(st.top().regs.get(s), Some(crate::state::Val::Const(_))),
    };
    if !c.args.iter().all(literal) {
        return false;
    }
    st.unrolled += 1;
    true
}

/// A call of the recursive `fid`: the call state (to `fid`'s call head) and the caller's
/// continuation with a result satisfying the summary.
pub fn call(ex: &mut Exec, mut st: State, c: &Call, fid: FuncId) -> Outcome {
    use super::rec_memory::Effect;
    let name = ex.module.func(fid).name.clone();
    let Some(effect) = super::rec_memory::effect(ex.module, fid) else {
        return ex.unsupported(
            &st,
            &format!(
                "recursive call of `{name}`, which may change memory its caller can reach (neither a reader nor a builder of new memory)"
            ),
        );
    };
    let params = ex.module.func(fid).params.len();
    let mut vals = Vec::new();
    let mut ptrs = BTreeMap::new();
    for (i, arg) in c.args.iter().enumerate().take(params) {
        let p = Slot(i as u32);
        let Some(width) = ex.slot_width(fid, p) else {
            // Only a reader has pointer parameters ([`super::rec_memory::effect`]).
            match super::memory::pointer(ex, &mut st, *arg) {
                Ok(v) => ptrs.insert(p, v),
                Err(o) => return o,
            };
            continue;
        };
        let reading = ex.class.reading(fid, p);
        match ex.operand(&mut st, *arg, width, reading) {
            Ok(v) => vals.push((p, v, width, reading)),
            Err(o) => return o,
        }
    }
    let returns_ptr = matches!(
        ex.module.ty(ex.module.func(fid).ret).kind,
        symex_ir::TypeKind::Ptr
    );
    if returns_ptr && effect != Effect::Builder {
        return ex.unsupported(
            &st,
            &format!("`{name}` returns a pointer (summarised only for builders of new lists)"),
        );
    }
    let result = match (c.dst, result_type(ex, fid)) {
        (Some(_), None) if !returns_ptr => {
            return ex.unsupported(&st, &format!("`{name}` returns a non-integer"))
        }
        (_, r) => r,
    };
    let mut out = Vec::new();
    let mut callee = st.clone();
    callee.frames = vec![Frame {
        func: fid,
        block: BlockId(0),
        idx: 0,
        regs: BTreeMap::new(),
        ret_to: None,
        ptrs,
    }];
    // A builder reaches none of the caller's memory: its body starts without it (globals
    // keep their indices).
    if effect == Effect::Builder {
        callee.mem = super::alloc::initial_mem(ex.module);
    }
    for (p, v, width, reading) in &vals {
        ex.bind(&mut callee, *p, v.clone(), *width, *reading);
    }
    callee.arrived = true;
    // The callee's computation and the caller's continuation are both part of one run (a
    // tree): the number ties the call's chain to the chains that go on after it returned.
    let number = ex.ncalls;
    ex.ncalls += 1;
    callee.calls.made = Some(number);
    out.push(callee);
    st.calls.returned.push(number);
    if returns_ptr {
        out.extend(pointer_continuations(ex, st, c, fid, &vals));
    } else if let Some(back) = continuation(ex, st, c, fid, &vals, result) {
        out.push(back);
    }
    Outcome::Next(out)
}

/// The caller after a call of a builder that returns a pointer: one state per case of its
/// summary (none before the analysed body has returned).
fn pointer_continuations(
    ex: &mut Exec,
    st: State,
    c: &Call,
    fid: FuncId,
    args: &[(Slot, Poly, u32, Reading)],
) -> Vec<State> {
    let params = ex.module.func(fid).params.len();
    let summary = ex
        .summaries
        .entry(fid)
        .or_insert_with(|| Summary {
            params,
            width: 64,
            reading: Reading::Unsigned,
            atoms: Vec::new(),
            ptr: Some(Default::default()),
        })
        .ptr
        .clone()
        .unwrap_or_default();
    let arg_of = |i: usize| -> Poly {
        args.iter()
            .find(|a| a.0 == Slot(i as u32))
            .map_or(Poly::constant(0), |a| a.1.clone())
    };
    let mut out = super::rec_memory::continuations(ex, &st, fid, &arg_of, c.dst, &summary);
    for s in &mut out {
        s.top_mut().idx += 1;
    }
    out
}

/// The caller after the call returned: `dst := r` with the summary's facts for these
/// arguments; `None` when the summary is unsatisfiable here (no call returns).
fn continuation(
    ex: &mut Exec,
    mut st: State,
    c: &Call,
    fid: FuncId,
    args: &[(Slot, Poly, u32, Reading)],
    result: Option<(u32, Reading)>,
) -> Option<State> {
    let Some((width, reading)) = result else {
        // A `void` function: nothing to relate, the caller goes on.
        st.top_mut().idx += 1;
        return Some(st);
    };
    if !ex.summaries.contains_key(&fid) {
        let start = candidates(ex, fid, width, reading);
        ex.summaries.insert(fid, start);
    }
    let summary = ex.summaries[&fid].clone();
    let r = ex.fresh(&mut st, width, reading);
    let arg_of = |i: usize| -> Poly {
        if i == summary.params {
            return Poly::var(r);
        }
        args.iter()
            .find(|a| a.0 == Slot(i as u32))
            .map_or(Poly::constant(0), |a| a.1.clone())
    };
    let facts: Vec<Atom> = summary
        .atoms
        .iter()
        .filter(|a| {
            a.poly
                .vars()
                .iter()
                .all(|v| *v == summary.params || args.iter().any(|x| x.0 == Slot(*v as u32)))
        })
        .map(|a| Atom {
            poly: a.poly.substitute(&arg_of),
            rel: a.rel,
        })
        .collect();
    if !ex.kb.feasible(&st.kb, &facts) {
        return None;
    }
    st.kb.extend(
        facts
            .into_iter()
            .filter(|a| crate::state::const_truth(a).is_none()),
    );
    if let Some(d) = c.dst {
        ex.bind(&mut st, d, Poly::var(r), width, reading);
    }
    st.top_mut().idx += 1;
    Some(st)
}

/// At a `ret` of a bottom frame: for a recursive function's analysed body, the summary keeps
/// only the facts this return entails (`ex.rebuild` is set when one is dropped).
pub fn record_return(ex: &mut Exec, st: &mut State, val: Option<Operand>) -> Result<(), Outcome> {
    let f = st.top().func;
    if st.frames.len() != 1 || !ex.recursive.contains(&f) || ex.concrete_inputs.is_some() {
        return Ok(());
    }
    let Some(summary) = ex.summaries.get(&f).cloned() else {
        // No call has made a summary (the entry function itself): nothing to check.
        return Ok(());
    };
    let Some(op) = val else {
        return Ok(());
    };
    if let Some(mut ptr) = summary.ptr.clone() {
        let lits = literals(ex.module, f);
        let changed = super::rec_memory::record_pointer_return(ex, st, f, op, &lits, &mut ptr)
            .map_err(|what| ex.unsupported(st, &format!("recursive builder: {what}")))?;
        if changed {
            ex.summaries.insert(
                f,
                Summary {
                    ptr: Some(ptr),
                    ..summary
                },
            );
            ex.rebuild = true;
        }
        return Ok(());
    }
    let ret = ex.operand(st, op, summary.width, summary.reading)?;
    let regs = st.top().regs.clone();
    let mut dropped = false;
    let mut kept = Vec::new();
    for a in &summary.atoms {
        let mut known = true;
        let value = |i: usize| -> Poly {
            if i == summary.params {
                return ret.clone();
            }
            match regs.get(&Slot(i as u32)) {
                Some(v) => v.poly(),
                None => Poly::constant(0),
            }
        };
        for v in a.poly.vars() {
            let present =
                v == summary.params || v < summary.params && regs.contains_key(&Slot(v as u32));
            known &= present;
        }
        let inst = Atom {
            poly: a.poly.substitute(&value),
            rel: a.rel,
        };
        if known && ex.kb.entails(&st.kb, &inst) {
            kept.push(a.clone());
        } else {
            dropped = true;
        }
    }
    if dropped {
        ex.summaries.insert(
            f,
            Summary {
                atoms: kept,
                ..summary
            },
        );
        ex.rebuild = true;
    }
    Ok(())
}
