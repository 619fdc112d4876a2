//! Unfolding by the last transition (a light form of KoAT2's control-flow refinement):
//! a location `l` whose incoming transition `a` can never be followed by some outgoing
//! `b` (Z3 proves `guard_a ∧ guard_b(ū_a)` unsatisfiable) is split into one copy `l_a`
//! per incoming transition, and `b` leaves `l_a` only when `a` then `b` is possible.
//! Every run of the original is a run of the result with the same cost (the location
//! reached by `a` is `l_a`, and the pair it takes next is feasible) and every run of the
//! result projects to one of the original, so bounds and termination carry over; the
//! split separates loops that exclude each other (`x < y` counting up, `x > y` counting
//! down) into SCCs that linear ranking functions handle one by one.

use super::chain::compose;
use crate::its::{Its, Transition};
use crate::smt;
use std::time::Duration;
use symex_expr::Term;
use symex_solver::Solver;

/// Locations with more incoming × outgoing pairs than this are not split.
pub(crate) const MAX_PAIRS: usize = 36;

fn feasible(solver: &mut dyn Solver, its: &Its, a: &Transition, b: &Transition) -> bool {
    let ab = compose(its, a, b);
    let var = |v| smt::int_var("v", v);
    let guard: Vec<Term> = ab.guard.iter().map(|g| smt::atom_term(g, &var)).collect();
    // Kept when the solver cannot tell.
    !matches!(solver.is_sat(&guard), Ok(false))
}

/// A location name not used yet.
fn fresh_name(its: &Its, base: String) -> String {
    let mut name = base;
    while its.locations.contains(&name) {
        name.push('_');
    }
    name
}

/// Splits location `l` if some incoming/outgoing pair is infeasible; whether it did.
fn split(its: &mut Its, l: usize, solver: &mut dyn Solver, max_pairs: usize) -> bool {
    let ins: Vec<usize> = (0..its.transitions.len())
        .filter(|&i| its.transitions[i].target() == l)
        .collect();
    let outs: Vec<usize> = (0..its.transitions.len())
        .filter(|&i| its.transitions[i].source == l)
        .collect();
    if ins.len() < 2 || outs.is_empty() || ins.len() * outs.len() > max_pairs {
        return false;
    }
    let mut pairs = Vec::new();
    for &a in &ins {
        for &b in &outs {
            if feasible(solver, its, &its.transitions[a], &its.transitions[b]) {
                pairs.push((a, b));
            }
        }
    }
    if pairs.len() == ins.len() * outs.len() {
        return false;
    }
    // The copy of `l` each incoming transition reaches.
    let mut copy = std::collections::HashMap::new();
    for &a in &ins {
        let name = fresh_name(its, format!("{}_t{a}", its.locations[l]));
        copy.insert(a, its.location(&name));
    }
    let mut out = Vec::new();
    let retarget = |i: usize, mut t: Transition| {
        if t.target() == l {
            t.targets[0].0 = copy[&i];
        }
        t
    };
    for (i, t) in its.transitions.iter().enumerate() {
        if t.source != l {
            out.push(retarget(i, t.clone()));
        }
    }
    for &(a, b) in &pairs {
        let mut t = retarget(b, its.transitions[b].clone());
        t.source = copy[&a];
        out.push(t);
    }
    its.transitions = out;
    true
}

/// Splits the locations (other than the start) where it separates transitions, while the
/// ITS stays at most twice as large (plus 16 transitions).
pub fn unfold(its: &Its, timeout: Duration) -> Its {
    unfold_with(its, timeout, MAX_PAIRS)
}

/// As [`unfold`], splitting locations with up to `max_pairs` incoming × outgoing pairs.
pub fn unfold_with(its: &Its, timeout: Duration, max_pairs: usize) -> Its {
    let mut its = its.clone();
    if its.has_multi_targets() {
        return its;
    }
    let limit = 2 * its.transitions.len() + 16;
    let mut solver = smt::solver(timeout);
    for l in 0..its.locations.len() {
        if l == its.start {
            continue;
        }
        let before = its.clone();
        if split(&mut its, l, solver.as_mut(), max_pairs) && its.transitions.len() > limit {
            return before;
        }
    }
    its
}
