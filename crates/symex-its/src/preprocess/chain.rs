//! Chaining: a location `l` (not the start, no self-loop) is bypassed by composing each
//! transition into it with each transition out of it (`a → l → b` becomes `a → b`, with
//! both guards, the composed update, both costs and both sets of temporaries). The
//! transitions into `l` stay too, now ending in `l` without successors, so that runs
//! that stop at `l` keep their cost: every run of the original has a run of the result
//! with the same cost, and every run of the result is one of the original or a prefix of
//! one (stopping at `l` early), so upper bounds and termination carry over. Fewer
//! locations make guards of consecutive steps visible to one ranking-function constraint.

use crate::its::{Atom, Its, Transition};
use crate::poly::Poly;

/// Chains locations while the number of compositions per location stays at most `limit`.
pub fn chain(its: &Its, limit: usize) -> Its {
    let mut its = its.clone();
    if its.has_multi_targets() {
        return its;
    }
    for l in 0..its.locations.len() {
        if l == its.start {
            continue;
        }
        let ins: Vec<usize> = (0..its.transitions.len())
            .filter(|&i| its.transitions[i].target() == l)
            .collect();
        let outs: Vec<usize> = (0..its.transitions.len())
            .filter(|&i| its.transitions[i].source == l)
            .collect();
        let self_loop = outs.iter().any(|&i| its.transitions[i].target() == l);
        if self_loop || ins.is_empty() || outs.is_empty() || ins.len() * outs.len() > limit {
            continue;
        }
        its = bypass(&its, l);
    }
    its
}

/// `its` with location `l` (no self-loop) bypassed: each transition into `l` composed with
/// each transition out of it; the transitions into `l` stay, now without successors.
pub(super) fn bypass(its: &Its, l: usize) -> Its {
    let outs: Vec<usize> = (0..its.transitions.len())
        .filter(|&i| its.transitions[i].source == l)
        .collect();
    let mut composed = Vec::new();
    for a in its.transitions.iter().filter(|t| t.target() == l) {
        for &b in &outs {
            composed.push(compose(its, a, &its.transitions[b]));
        }
    }
    let mut its = its.clone();
    its.transitions = its
        .transitions
        .iter()
        .enumerate()
        .filter(|(i, _)| !outs.contains(i))
        .map(|(_, t)| t.clone())
        .chain(composed)
        .collect();
    its
}

/// `a` then `b` (with `a`'s target the source of `b`).
pub(super) fn compose(its: &Its, a: &Transition, b: &Transition) -> Transition {
    let n = its.arity();
    let ma = a.temps.len();
    // b's variables: program variables become a's updates, temporaries are shifted.
    let sub = |v: usize| {
        if v < n {
            a.update()[v].clone()
        } else {
            Poly::var(v + ma)
        }
    };
    let mut temps = a.temps.clone();
    for name in &b.temps {
        let mut fresh = name.clone();
        let mut k = 0;
        while temps.contains(&fresh) || its.vars.contains(&fresh) {
            k += 1;
            fresh = format!("{name}_{k}");
        }
        temps.push(fresh);
    }
    let mut guard = a.guard.clone();
    guard.extend(b.guard.iter().map(|g| Atom {
        poly: g.poly.substitute(&sub),
        rel: g.rel,
    }));
    Transition {
        source: a.source,
        targets: vec![(
            b.target(),
            b.update().iter().map(|u| u.substitute(&sub)).collect(),
        )],
        guard,
        cost: a.cost.add(&b.cost.substitute(&sub)),
        temps,
        com: a.com,
    }
}
