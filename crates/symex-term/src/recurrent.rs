//! Candidate recurrent sets from the loop's own guards, for [`crate::nonterm`]: the set where
//! one iteration of the loop is enabled, as far as it speaks of the head's registers
//! (`x ≥ 0` of `while (x >= 0) x = x + 1;`), alone and strengthened by up to two sign atoms
//! (`c ≥ 0` of `while (x >= 0) x = x + c;`, `y ≤ 0` of `while (x < 0) { x = x + y; y--; }`).
//!
//! A candidate is only a guess: `nonterm` keeps it when the solver proves it closed under
//! every SEG chain from the head, with no exit and no other head possible, and a concrete
//! run reaches it. Sets of this shape are unbounded, so they are the ones that prove
//! non-termination over mathematical integers (`--math-int`), where a loop that leaves
//! through a wrap-around in C does not.

use crate::seg::{Origin, Seg};
use crate::state::{eq, ge_c, le_c};
use rustc_hash::FxHashMap;
use symex_its::{Atom, Poly};

/// Sign atoms are combined in pairs only up to this many head registers (the pairs grow
/// quadratically and every candidate costs solver queries).
const MAX_PAIRED_REGISTERS: usize = 4;

/// Candidates at head `h`, over the head's slot indices (as `nonterm`'s sets), cheapest first.
pub fn guard_candidates(seg: &Seg, h: usize) -> Vec<Vec<Atom>> {
    let vars = &seg.head_vars[h];
    let spec = &seg.heads[h];
    // Symbolic variable of the head's general state → slot index.
    let index: FxHashMap<usize, usize> = vars
        .iter()
        .enumerate()
        .take(spec.slots.len())
        .filter_map(|(i, v)| v.map(|v| (v, i)))
        .collect();
    let registers: Vec<usize> = spec
        .slots
        .iter()
        .enumerate()
        .filter(|(i, s)| s.2 > 1 && vars.get(*i).copied().flatten().is_some())
        .map(|(i, _)| i)
        .collect();
    let signs: Vec<Atom> = registers
        .iter()
        .flat_map(|&i| {
            let x = Poly::var(i);
            [ge_c(&x, 0), le_c(&x, 0), eq(&x, &Poly::constant(0))]
        })
        .collect();
    let mut out: Vec<Vec<Atom>> = Vec::new();
    let mut push = |mut c: Vec<Atom>| {
        c.sort();
        c.dedup();
        if !c.is_empty() && !out.contains(&c) {
            out.push(c);
        }
    };
    let guards: Vec<Vec<Atom>> = seg
        .edges
        .iter()
        .filter(|e| e.from == Origin::Head(h) && e.to == h)
        .map(|e| over_head(&e.kb, &index))
        .collect();
    for g in &guards {
        push(g.clone());
    }
    for g in &guards {
        for s in &signs {
            push([g.clone(), vec![s.clone()]].concat());
        }
    }
    if registers.len() <= MAX_PAIRED_REGISTERS {
        for g in &guards {
            for (k, s) in signs.iter().enumerate() {
                for t in &signs[k + 1..] {
                    push([g.clone(), vec![s.clone(), t.clone()]].concat());
                }
            }
        }
    }
    out
}

/// The atoms of a chain's KB over the head's variables only, renamed to slot indices.
fn over_head(kb: &[Atom], index: &FxHashMap<usize, usize>) -> Vec<Atom> {
    kb.iter()
        .filter(|a| {
            let vs = a.poly.vars();
            !vs.is_empty() && vs.iter().all(|v| index.contains_key(v))
        })
        .map(|a| Atom {
            poly: a.poly.substitute(&|v| Poly::var(index[&v])),
            rel: a.rel,
        })
        .collect()
}
