//! `p ≠ 0` is `p ≥ 1 ∨ −p ≥ 1`: a transition with such an atom becomes two, one per case,
//! so that guards are conjunctions of linear (in)equalities for Farkas' lemma.

use crate::its::{Atom, Its, Rel};
use crate::poly::Poly;

/// Splits every `≠` atom (at most 2^8 copies per transition; beyond that the atom is
/// kept, which the provers read as no constraint — sound, less precise).
pub fn split_disequalities(its: &Its) -> Its {
    let mut out = its.clone();
    out.transitions.clear();
    for t in &its.transitions {
        let ne: Vec<usize> = (0..t.guard.len())
            .filter(|&i| t.guard[i].rel == Rel::Ne)
            .collect();
        if ne.is_empty() || ne.len() > 8 {
            out.transitions.push(t.clone());
            continue;
        }
        for mask in 0..(1u32 << ne.len()) {
            let mut u = t.clone();
            for (bit, &i) in ne.iter().enumerate() {
                let p = &t.guard[i].poly;
                let side = if mask >> bit & 1 == 0 {
                    p.clone()
                } else {
                    p.scale(-1)
                };
                u.guard[i] = Atom::ge0(side.sub(&Poly::constant(1)));
            }
            out.transitions.push(u);
        }
    }
    out
}
