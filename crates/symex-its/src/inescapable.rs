//! Non-termination of an SCC that no transition leaves and in which every state can go
//! on (T2's `bio`: a simulation loop through 60 locations, each with a case split that
//! covers every value, and no exit). A companion of [`crate::closed_set`], whose sets
//! come from the states of runs; here they come from the guards alone, so the size of
//! the loop does not matter.
//!
//! For a cyclic SCC `C` without a transition from `C` to outside: each location `l` gets
//! a set `R_l`, a conjunction of the atoms that every transition leaving `l` has in its
//! guard (the location invariants preprocessing added), shrunk Houdini style until it
//! is **closed** (`R_l(x̄) ∧ g_t(x̄) ⇒ R_{l'}(ū_t(x̄))` for every `t: l → l'`); then it
//! must be **live** (`R_l(x̄) ⇒ ∨_{t from l} g_t(x̄)`, checked once per location). The
//! temporaries a guard mentions are pinned by a guard equality
//! ([`crate::recurrent::pinned`]); a transition with another temporary in its guard is
//! left out (it may not be enabled for the values chosen). From any state of some `R_l`
//! the strategy "take the first enabled transition of `C`" then never stops, and a
//! solver model of the shortest path from the start into `R_l` gives a run that reaches
//! one: its prefix followed by the strategy is an infinite run.

use crate::closed_set::step_terms;
use crate::graph;
use crate::its::{Atom, Its, Transition};
use crate::nontermination::Witness;
use crate::poly::Poly;
use crate::smt;
use std::time::Instant;
use symex_expr::Term;
use symex_solver::Solver;

/// A witness for the first inescapable SCC reachable from the start, or `None` (also
/// past `deadline`, or when a solver query fails).
pub fn prove(its: &Its, solver: &mut dyn Solver, deadline: Instant) -> Option<Witness> {
    if its.has_multi_targets() {
        return None;
    }
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    for locs in graph::sccs(its, &all) {
        let inside = graph::inside(its, &all, &locs);
        let leaves = its
            .transitions
            .iter()
            .any(|t| locs.contains(&t.source) && !locs.contains(&t.target()));
        if inside.is_empty() || leaves {
            continue;
        }
        if Instant::now() > deadline {
            return None;
        }
        if let Some(w) = witness(its, solver, &locs, &inside, deadline) {
            return Some(w);
        }
    }
    None
}

/// The strategy, closed sets and path of the SCC `locs` (transitions `inside`).
fn witness(
    its: &Its,
    solver: &mut dyn Solver,
    locs: &[usize],
    inside: &[usize],
    deadline: Instant,
) -> Option<Witness> {
    let strategy: Vec<(usize, Vec<Poly>)> = inside
        .iter()
        .filter_map(|&i| Some((i, temps_of(its, &its.transitions[i])?)))
        .collect();
    let mut sets: Vec<(usize, Vec<Atom>)> = locs
        .iter()
        .map(|&l| (l, common_atoms(its, l, &strategy)))
        .collect();
    close(its, solver, &strategy, &mut sets, deadline)?;
    for (l, set) in &sets {
        if !live(its, solver, &strategy, *l, set)? {
            return None;
        }
    }
    // The way in: the shortest path to the SCC, into the set of the location it reaches.
    let (entry, set) = sets
        .iter()
        .filter_map(|(l, set)| {
            let path = graph::shortest_path(its, its.start, *l)?;
            Some((path, set))
        })
        .min_by_key(|(p, _)| p.len())?;
    let var_set = set.clone();
    let target = move |x: &[Term]| {
        let at = |v: usize| x[v].clone();
        var_set.iter().map(|a| smt::atom_term(a, &at)).collect()
    };
    let (start, path_temps) = crate::nontermination::reach(its, solver, &entry, &target)?;
    let first = strategy.first()?.0;
    Some(Witness {
        start,
        path: entry,
        path_temps,
        lp: first,
        cycle: strategy.iter().map(|(t, _)| *t).collect(),
        cycle_temps: strategy.into_iter().map(|(_, p)| p).collect(),
        first_enabled: true,
        recurrent_set: describe(its, &sets),
    })
}

/// The temporaries of `t` as polynomials over the program variables: pinned by a guard
/// equality, else 0 when no guard atom mentions them; `None` when a guard needs a
/// temporary that is not pinned.
fn temps_of(its: &Its, t: &Transition) -> Option<Vec<Poly>> {
    let n = its.arity();
    (0..t.temps.len())
        .map(|q| {
            if let Some(p) = crate::recurrent::pinned(its, t, q) {
                return Some(p);
            }
            let free = t.guard.iter().all(|a| !a.poly.vars().contains(&(n + q)));
            free.then(Poly::default)
        })
        .collect()
}

/// The temporary-free atoms in the guard of every transition of the strategy leaving `l`
/// (none when no transition of it leaves `l`).
fn common_atoms(its: &Its, l: usize, strategy: &[(usize, Vec<Poly>)]) -> Vec<Atom> {
    let n = its.arity();
    let mut from = strategy
        .iter()
        .map(|(i, _)| &its.transitions[*i])
        .filter(|t| t.source == l);
    let Some(first) = from.next() else {
        return Vec::new();
    };
    let mut atoms: Vec<Atom> = first
        .guard
        .iter()
        .filter(|a| a.poly.vars().iter().all(|&v| v < n))
        .cloned()
        .collect();
    for t in from {
        atoms.retain(|a| t.guard.contains(a));
    }
    atoms
}

/// Drops the atoms of the sets that some transition of the strategy does not keep, until
/// every one keeps them all (each round drops at least one atom, or ends). `None` past
/// the deadline or when the solver fails.
fn close(
    its: &Its,
    solver: &mut dyn Solver,
    strategy: &[(usize, Vec<Poly>)],
    sets: &mut [(usize, Vec<Atom>)],
    deadline: Instant,
) -> Option<()> {
    let x: Vec<Term> = (0..its.arity()).map(|v| smt::int_var("ie", v)).collect();
    let index = |l: usize, sets: &[(usize, Vec<Atom>)]| sets.iter().position(|(m, _)| *m == l);
    loop {
        let mut dropped = false;
        for (i, temps) in strategy {
            if Instant::now() > deadline {
                return None;
            }
            let t = &its.transitions[*i];
            let (pre, post) = step_terms(its, t, temps, &x)?;
            let (src, tgt) = (index(t.source, sets)?, index(t.target(), sets)?);
            let at = |v: usize| x[v].clone();
            let mut pc: Vec<Term> = sets[src].1.iter().map(|a| smt::atom_term(a, &at)).collect();
            pc.extend(pre);
            let after = |v: usize| post[v].clone();
            let before = sets[tgt].1.len();
            let mut kept = Vec::new();
            for a in &sets[tgt].1 {
                if solver.must_be_true(&pc, &smt::atom_term(a, &after)).ok()? {
                    kept.push(a.clone());
                }
            }
            dropped |= kept.len() != before;
            sets[tgt].1 = kept;
        }
        if !dropped {
            return Some(());
        }
    }
}

/// Whether some transition of the strategy leaving `l` is enabled in every state of
/// `set` (`None` when the solver fails).
fn live(
    its: &Its,
    solver: &mut dyn Solver,
    strategy: &[(usize, Vec<Poly>)],
    l: usize,
    set: &[Atom],
) -> Option<bool> {
    let x: Vec<Term> = (0..its.arity()).map(|v| smt::int_var("ie", v)).collect();
    let at = |v: usize| x[v].clone();
    let pc: Vec<Term> = set.iter().map(|a| smt::atom_term(a, &at)).collect();
    let enabled: Vec<Term> = strategy
        .iter()
        .filter(|(i, _)| its.transitions[*i].source == l)
        .map(|(i, temps)| {
            step_terms(its, &its.transitions[*i], temps, &x).map(|(pre, _)| Term::and_all(&pre))
        })
        .collect::<Option<_>>()?;
    if enabled.is_empty() {
        return Some(false);
    }
    solver.must_be_true(&pc, &Term::or_all(&enabled)).ok()
}

/// The sets, readable: `l: atoms` per location with a non-trivial one.
fn describe(its: &Its, sets: &[(usize, Vec<Atom>)]) -> String {
    let parts: Vec<String> = sets
        .iter()
        .filter(|(_, set)| !set.is_empty())
        .map(|(l, set)| {
            let atoms: Vec<String> = set
                .iter()
                .map(|a| {
                    format!(
                        "{} {} 0",
                        a.poly.display(&|v| its.vars[v].clone()),
                        a.rel.symbol()
                    )
                })
                .collect();
            format!("{}: {}", its.locations[*l], atoms.join(" && "))
        })
        .collect();
    if parts.is_empty() {
        "every state of the SCC (no exit, every case covered)".into()
    } else {
        parts.join("; ")
    }
}
