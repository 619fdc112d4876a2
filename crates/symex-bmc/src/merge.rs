//! Joining two states at the same program point (same call stack, same block and instruction, same loop
//! iterations): registers become `ite(guard₁, v₁, v₂)`, memory is merged object by object and byte by
//! byte (a pointer is a value like any other, so two pointers become an `ite` of addresses that an access
//! resolves without forking when both name one object), and the guard becomes `guard₁ ∨ guard₂`.
//!
//! Two states whose shapes differ (other objects live, other initialised bytes, another stdin position)
//! are not joined: both go on, which costs paths but never soundness.

use crate::guarded::Guarded;
use std::rc::Rc;
use symex_engine::memory::Lookup;
use symex_engine::provenance::ProvenanceMap;
use symex_engine::regs::RegisterFile;
use symex_engine::state::Frame;
use symex_engine::{Program, State};
use symex_explore::symbolic::{SymByte, SymVal};
use symex_expr::Term;
use symex_ir::Slot;

fn byte_term(b: &SymByte) -> Term {
    match b {
        SymByte::Const(c) => Term::bv(*c as u128, 8),
        SymByte::Sym(t) => t.clone(),
    }
}

fn byte_of(t: Term) -> SymByte {
    match t.as_bv() {
        Some(c) => SymByte::Const(c as u8),
        None => SymByte::Sym(t),
    }
}

fn ite_byte(g: &Term, a: &SymByte, b: &SymByte) -> SymByte {
    if a == b {
        return a.clone();
    }
    byte_of(g.ite(&byte_term(a), &byte_term(b)))
}

fn ite_bytes(g: &Term, a: &[SymByte], b: &[SymByte]) -> Rc<[SymByte]> {
    a.iter().zip(b).map(|(x, y)| ite_byte(g, x, y)).collect()
}

/// Whether `a` and `b` have the same shape: frames, objects and stdin, so that a join is exact.
fn same_shape(a: &State<Guarded>, b: &State<Guarded>) -> bool {
    if a.frames().len() != b.frames().len() || a.mem.object_count() != b.mem.object_count() {
        return false;
    }
    let frames_match = a.frames().iter().zip(b.frames()).all(|(x, y)| {
        x.func == y.func
            && x.block == y.block
            && x.inst == y.inst
            && x.allocas == y.allocas
            && x.private == y.private
            && x.varargs == y.varargs
            && x.ret_dst == y.ret_dst
            && x.aggs().len() == y.aggs().len()
            && x.aggs()
                .iter()
                .all(|(s, v)| y.agg(*s).is_some_and(|w| w.len() == v.len()))
    });
    frames_match && a.checks == b.checks && format!("{:?}", a.stdin) == format!("{:?}", b.stdin)
}

/// Joins `b` into `a`; `false` (and `a` unchanged) when their shapes differ.
pub fn join(prog: &Program, a: &mut State<Guarded>, b: &State<Guarded>) -> bool {
    if !same_shape(a, b) || !memory_joinable(a, b) {
        return false;
    }
    let g = a.dom.guard.clone();
    for depth in 0..b.frames().len() {
        let (fb, rb) = (&b.frames()[depth], b.regs(depth).expect("same shape"));
        let body = prog.module().func(fb.func).body.as_ref().expect("a body");
        let ra = a.regs_mut(depth).expect("same shape");
        // By index: a register both sides hold equal stays in its chunk, shared with `a`'s siblings.
        let n = ra.len().min(rb.len());
        for (i, &ty) in body.slot_types.iter().enumerate().take(n) {
            if ra[i] == rb[i] {
                continue;
            }
            let Some(w) = prog.width(ty) else {
                continue;
            };
            let joined = SymVal::from_term(g.ite(&ra[i].term(w), &rb[i].term(w)));
            ra[i] = joined;
        }
        let fa = &mut a.frames_mut()[depth];
        for (s, va) in fa.aggs_mut() {
            let vb = fb.agg(*s).expect("same shape");
            if !Rc::ptr_eq(va, vb) {
                *va = ite_bytes(&g, va, vb);
            }
        }
        join_agg_provenance(fa, fb);
    }
    for id in 0..a.mem.object_count() as u32 {
        let (Some(oa), Some(ob)) = (a.mem.object_shared(id), b.mem.object_shared(id)) else {
            continue;
        };
        // `memory_joinable` admitted only flat contents with the same initialised bytes.
        // Which bytes hold stored pointers decides whether an integer loaded from them is an
        // observed address: the join keeps what either side recorded ([`ProvenanceMap::join`]).
        if !Rc::ptr_eq(&oa, &ob) && oa.provenance != ob.provenance {
            let joined = oa.provenance.join(&ob.provenance);
            a.mem.object_mut(id).expect("a live object").provenance = joined;
        }
        let (Some(xb), Some(yb)) = (oa.contents.flat(), ob.contents.flat()) else {
            continue;
        };
        if Rc::ptr_eq(&oa, &ob) || xb == yb {
            continue;
        }
        let o = a.mem.object_mut(id).expect("a live object");
        let bytes = o.contents.flat_mut().expect("flat as in b");
        for (x, y) in bytes.iter_mut().zip(yb) {
            if x != y {
                *x = ite_byte(&g, x, y);
            }
        }
    }
    a.steps = a.steps.max(b.steps);
    a.dom.join(&b.dom);
    true
}

/// The provenance of each aggregate register as either frame recorded it ([`ProvenanceMap::join`]).
fn join_agg_provenance(fa: &mut Frame<Guarded>, fb: &Frame<Guarded>) {
    if fa.agg_provenances() == fb.agg_provenances() {
        return;
    }
    let mut slots: Vec<Slot> = fa.agg_provenances().iter().map(|(s, _)| *s).collect();
    slots.extend(fb.agg_provenances().iter().map(|(s, _)| *s));
    slots.sort_unstable();
    slots.dedup();
    let empty = ProvenanceMap::default();
    for s in slots {
        let x = fa.agg_provenance(s).unwrap_or(&empty);
        let y = fb.agg_provenance(s).unwrap_or(&empty);
        let joined = x.join(y);
        fa.set_agg_provenance(s, joined);
    }
}

/// Whether each object has the same status in both memories, and live ones the same size, kind and
/// initialised bytes (an uninitialised byte is an input when read: it cannot be an `ite`).
fn memory_joinable(a: &State<Guarded>, b: &State<Guarded>) -> bool {
    (0..a.mem.object_count() as u32).all(|id| match (a.mem.lookup(id), b.mem.lookup(id)) {
        (Lookup::Live(x), Lookup::Live(y)) => {
            std::ptr::eq(x, y)
                || (x.size() == y.size()
                    && x.kind == y.kind
                    && x.read_only == y.read_only
                    // Large objects are stored in pages (`storage.rs`) and are not merged: both
                    // states go on, which is correct, only slower.
                    && x.contents.flat().is_some()
                    && y.contents.flat().is_some()
                    && (0..x.size() as usize)
                        .all(|i| x.contents.is_init(i, 1) == y.contents.is_init(i, 1)))
        }
        (Lookup::Dead(k), Lookup::Dead(l)) => k == l,
        (Lookup::OutOfScope, Lookup::OutOfScope) | (Lookup::Nothing, Lookup::Nothing) => true,
        (Lookup::Function(f), Lookup::Function(g)) => f == g,
        _ => false,
    })
}
