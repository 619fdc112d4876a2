//! Candidate loop invariants from the SEG's abstract states: the facts of a loop head's general state
//! ([B] Def. 1's `KB`, over the registers of its `LV`) written over the program's variables, for
//! correctness witnesses. A general state covers the arrivals at its head after generalization, not
//! necessarily the first ones (those may have been unrolled), so a fact is only a *candidate*: whoever
//! writes it must check that it holds at the first arrival and is preserved by an iteration.
//!
//! A register stands for a source variable at the loop head when the debug information says so
//! (`llvm.dbg.value` after `mem2reg`): a call at the head block's entry (a φ of the head), or the only
//! call of the variable, in the entry block (a value set once before the loop). A name two variables of
//! the function share is not used; nor is a fact over a value without a name, over memory, or one that
//! the variables' ranges make true anyway.

use crate::seg::Seg;
use crate::state::Reading;
use rustc_hash::FxHashMap;
use symex_engine::{LinearCandidate, LinearTerm};
use symex_ir::{BlockId, Body, Module, Slot};
use symex_its::{Atom, Rel};

/// The candidates of every loop head of `seg`, in head order.
pub fn candidates(seg: &Seg, module: &Module) -> Vec<LinearCandidate> {
    let mut out: Vec<LinearCandidate> = Vec::new();
    for spec in &seg.heads {
        let Some(&(f, b, _)) = spec.key.last() else {
            continue;
        };
        let func = module.func(symex_ir::FuncId(f));
        let Some(body) = func.body.as_ref() else {
            continue;
        };
        let Some(line) = head_line(body, BlockId(b)) else {
            continue;
        };
        let names = names_at(body, BlockId(b));
        let top = spec.key.len() - 1;
        let var = |i: usize| -> Option<(String, u32, bool)> {
            let (fi, slot, width, reading) = spec.slots.get(i)?;
            let name = (*fi == top).then(|| names.get(slot)).flatten()?;
            Some((name.clone(), *width, *reading == Reading::Signed))
        };
        for a in &spec.facts {
            let Some(c) = candidate(a, &var) else {
                continue;
            };
            let c = LinearCandidate {
                function: func.name.to_string(),
                line,
                ..c
            };
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// `a` over named variables, unless it is not linear, names a value without a name, or holds on the
/// whole box of the variables' ranges.
fn candidate(
    a: &Atom,
    var: &dyn Fn(usize) -> Option<(String, u32, bool)>,
) -> Option<LinearCandidate> {
    if !a.poly.is_linear() || matches!(a.rel, Rel::Ne) {
        return None;
    }
    let mut terms = Vec::new();
    let (mut low, mut high) = (a.poly.constant_term(), a.poly.constant_term());
    for v in a.poly.vars() {
        let coefficient = a.poly.linear_coeff(v);
        if coefficient == 0 {
            continue;
        }
        let (variable, width, signed) = var(v)?;
        let (min, max) = range(width, signed)?;
        let (x, y) = (coefficient.checked_mul(min)?, coefficient.checked_mul(max)?);
        low = low.checked_add(x.min(y))?;
        high = high.checked_add(x.max(y))?;
        terms.push(LinearTerm {
            variable,
            coefficient,
            width,
            signed,
        });
    }
    let equality = matches!(a.rel, Rel::Eq);
    if terms.is_empty() || (!equality && low >= 0) || (equality && low == 0 && high == 0) {
        return None;
    }
    Some(LinearCandidate {
        function: String::new(),
        line: 0,
        terms,
        constant: a.poly.constant_term(),
        equality,
    })
}

/// The values of `width` bits in one reading.
fn range(width: u32, signed: bool) -> Option<(i128, i128)> {
    (1..=64).contains(&width).then(|| {
        if signed {
            (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
        } else {
            (0, (1i128 << width) - 1)
        }
    })
}

/// The source line of a loop head: its first located instruction's (as loops are named elsewhere).
fn head_line(body: &Body, b: BlockId) -> Option<u32> {
    let blk = body.blocks.get(b.0 as usize)?;
    blk.locs
        .iter()
        .chain([&blk.term_loc])
        .map(|l| l.line)
        .find(|&l| l != 0)
}

/// The registers that hold a source variable at the entry of block `b`, with the variable's name.
fn names_at(body: &Body, b: BlockId) -> FxHashMap<Slot, String> {
    let mut by_name: FxHashMap<&str, Vec<u32>> = FxHashMap::default();
    let mut calls: FxHashMap<u32, usize> = FxHashMap::default();
    for d in &body.dbg_values {
        let ids = by_name.entry(&d.name).or_default();
        if !ids.contains(&d.variable) {
            ids.push(d.variable);
        }
        *calls.entry(d.variable).or_default() += 1;
    }
    let unique = |name: &str| by_name.get(name).is_some_and(|ids| ids.len() == 1);
    let mut m = FxHashMap::default();
    for d in &body.dbg_values {
        let at_head = d.block == b && d.leading;
        let set_once = d.block.0 == 0 && b.0 != 0 && calls.get(&d.variable) == Some(&1);
        if (at_head || set_once) && unique(&d.name) {
            m.entry(d.slot).or_insert_with(|| d.name.clone());
        }
    }
    m
}
