//! Control-flow refinement by case splits on *phase atoms*: a loop whose body chooses a case
//! per step may still run in phases, because some guard atom, once false (or once true),
//! stays so on every lap. The loop's head is split into one copy per side of such an atom,
//! and the laps that cross from the open side to the closed one go from copy to copy, never
//! back; the SCC falls apart into phases that linear ranking functions handle one by one.
//! This is partial evaluation (Domenech, Gallagher & Genaim 2019; KoAT2's and CoFloCo's
//! control-flow refinement) with two differences: each version knows the sign of its atoms —
//! a transition whose update leaves the sign open is split into both cases (over ℤ,
//! `p ≥ 0` or `−p − 1 ≥ 0`) instead of forgetting the property —, and only atoms whose
//! sign is monotone along the loop are used, so that the versions are phases.
//!
//! T2's `fun5` moves `D` one step toward `B/2 + 1` and `E` one step toward `(D + A)/2` per
//! lap: once `2·D ≤ B + 3`, `D` never falls again, and then `E` moves only one way. Loopus'
//! `Example2` (binary search with step size 4, halved at every turn after the first) moves
//! by 4 in one direction while `B = 0`: the halving flag `B ≥ 1` is closed, and within
//! `B = 0` so is the direction `A ≥ 2`.
//!
//! A multi-location SCC is first chained down to one head (a location whose removal leaves
//! no cycle): each lap becomes a self-loop of the head, as [`chain`] does, so that an atom of
//! the head is compared after whole laps (in `fun5` `D` is set at the end of the lap, from
//! the `F` computed at its start).
//!
//! Soundness (every run of the original has a run of the result with the same cost, and every
//! run of the result is one of the original or a prefix of one): chaining keeps runs as
//! [`chain`] says. At a split location every state satisfies one side of the atom, so it is
//! in exactly one copy; a transition into the location is copied once per side of the atom
//! after its update, each with that side added to its guard (the copies cover the original
//! over ℤ), and a transition out of it is copied once per copy with that copy's side; guards
//! only get stronger, updates and costs stay. So upper bounds and termination carry over.

use super::chain::bypass;
use super::{add_linear_invariants, remove_unreachable, remove_unsatisfiable};
use crate::graph;
use crate::its::{Atom, Its, Rel, Transition};
use crate::poly::Poly;
use crate::smt;
use std::time::{Duration, Instant};
use symex_expr::Term;
use symex_solver::Solver;

/// Splits per loop head (each at most doubles the head's copies).
const MAX_DEPTH: usize = 6;

/// Compositions per location when an SCC is chained to its head.
const MAX_COMPOSITIONS: usize = 128;

/// Self-loops of a chained head beyond which the SCC is left alone (the closedness checks ask
/// one query per self-loop and atom).
const MAX_LAPS: usize = 64;

/// Candidate atoms per head.
const MAX_ATOMS: usize = 24;

/// The ITS with the SCCs `sccs` (location sets, not containing the start) chained to one head
/// each and their heads split on phase atoms, unsatisfiable and unreachable transitions
/// removed; `None` when nothing was split, or past the deadline.
pub fn split_phases(
    its: &Its,
    sccs: &[Vec<usize>],
    timeout: Duration,
    deadline: Instant,
) -> Option<Its> {
    if its.has_multi_targets() {
        return None;
    }
    let mut current = its.clone();
    let mut heads = Vec::new();
    let mut solver = smt::solver(timeout);
    for locs in sccs {
        if locs.contains(&its.start) {
            continue;
        }
        if let Some((chained, head)) = chain_to_head(&current, locs, solver.as_mut()) {
            current = chained;
            heads.push(head);
        }
    }
    if heads.is_empty() {
        return None;
    }
    // What holds at the heads after whole laps (Loopus' `Example2`: the step size `C ≥ 1`),
    // so that a side no run reaches is not taken for a phase.
    current = add_linear_invariants(&current, timeout);
    current = remove_unsatisfiable(&current, timeout);
    let limit = 4 * current.transitions.len() + 64;
    let mut split = false;
    let mut work: Vec<(usize, usize)> = heads.into_iter().map(|h| (h, 0)).collect();
    while let Some((head, depth)) = work.pop() {
        if depth >= MAX_DEPTH || Instant::now() > deadline {
            continue;
        }
        let Some(side) = phase_atom(&current, head, solver.as_mut()) else {
            continue;
        };
        let (next, copy) = split_head(&current, head, &side);
        let next = remove_unsatisfiable(&next, timeout);
        if next.transitions.len() > limit {
            break;
        }
        current = next;
        split = true;
        work.push((head, depth + 1));
        work.push((copy, depth + 1));
    }
    split.then(|| remove_unreachable(&current))
}

/// `its` with the SCC `locs` chained to one head (the returned location): every other
/// location of the SCC bypassed ([`bypass`]) in [`topological`] order, the unsatisfiable
/// compositions dropped as they arise. `None` when no location's removal leaves the SCC
/// acyclic, or a location needs more than [`MAX_COMPOSITIONS`], or the head ends up with more
/// than [`MAX_LAPS`] self-loops.
fn chain_to_head(its: &Its, locs: &[usize], solver: &mut dyn Solver) -> Option<(Its, usize)> {
    let head = pick_head(its, locs)?;
    let mut its = its.clone();
    for l in topological(&its, locs, head) {
        let ins = its.transitions.iter().filter(|t| t.target() == l).count();
        let outs = its.transitions.iter().filter(|t| t.source == l).count();
        if ins * outs > MAX_COMPOSITIONS {
            return None;
        }
        let before = its.transitions.len() - outs;
        its = bypass(&its, l);
        // The compositions come last: keep those Z3 cannot refute.
        let mut composed = its.transitions.split_off(before);
        composed.retain(|t| satisfiable(t, solver));
        its.transitions.extend(composed);
    }
    let laps = its
        .transitions
        .iter()
        .filter(|t| t.source == head && t.target() == head)
        .count();
    (laps > 0 && laps <= MAX_LAPS).then_some((its, head))
}

/// The locations of the SCC `locs` but `head`, each after those with a transition into it
/// (without `head` they form no cycle): bypassed in this order, each location's incoming
/// transitions are the head's paths to it, already pruned, and its outgoing ones its own.
fn topological(its: &Its, locs: &[usize], head: usize) -> Vec<usize> {
    let rest: Vec<usize> = locs.iter().copied().filter(|&l| l != head).collect();
    let edges: Vec<(usize, usize)> = its
        .transitions
        .iter()
        .filter(|t| rest.contains(&t.source) && rest.contains(&t.target()))
        .map(|t| (t.source, t.target()))
        .collect();
    let mut order = Vec::new();
    let mut left = rest;
    while !left.is_empty() {
        let ready: Vec<usize> = left
            .iter()
            .copied()
            .filter(|&l| !edges.iter().any(|&(a, b)| b == l && left.contains(&a)))
            .collect();
        if ready.is_empty() {
            break;
        }
        left.retain(|l| !ready.contains(l));
        order.extend(ready);
    }
    order
}

/// Whether Z3 cannot refute the guard of `t`.
fn satisfiable(t: &Transition, solver: &mut dyn Solver) -> bool {
    let var = |v| smt::int_var("v", v);
    !matches!(solver.is_sat(&smt::guard_terms(&t.guard, &var)), Ok(false))
}

/// A location of the SCC `locs` whose removal leaves no cycle among the others; of those, one
/// entered from outside the SCC (the loop's head), else the first.
fn pick_head(its: &Its, locs: &[usize]) -> Option<usize> {
    let inner: Vec<usize> =
        graph::inside(its, &(0..its.transitions.len()).collect::<Vec<_>>(), locs);
    let cuts: Vec<usize> = locs
        .iter()
        .copied()
        .filter(|&h| {
            let without: Vec<usize> = inner
                .iter()
                .copied()
                .filter(|&i| {
                    let t = &its.transitions[i];
                    t.source != h && t.target() != h
                })
                .collect();
            graph::sccs(its, &without)
                .iter()
                .all(|c| graph::inside(its, &without, c).is_empty())
        })
        .collect();
    let entered = |h: usize| {
        its.transitions
            .iter()
            .any(|t| t.target() == h && !locs.contains(&t.source))
    };
    cuts.iter()
        .copied()
        .find(|&h| entered(h))
        .or(cuts.first().copied())
}

/// The side `s ≥ 0` of a phase atom at `head`: a linear guard atom of a self-loop there, over
/// program variables some self-loop changes, whose side `s` holds after every self-loop from
/// a state where it held (closed), whose other side is not (else it only splits a constant
/// case), and where both sides occur at the head (some self-loop is enabled on each).
fn phase_atom(its: &Its, head: usize, solver: &mut dyn Solver) -> Option<Atom> {
    let n = its.arity();
    let laps: Vec<&Transition> = its
        .transitions
        .iter()
        .filter(|t| t.source == head && t.target() == head)
        .collect();
    let changed = |v: usize| laps.iter().any(|t| t.update()[v] != Poly::var(v));
    let mut sides: Vec<Poly> = Vec::new();
    for a in laps.iter().flat_map(|t| &t.guard) {
        if !a.poly.is_linear()
            || a.poly.as_constant().is_some()
            || a.poly.vars().iter().any(|&v| v >= n)
            || !a.poly.vars().iter().any(|&v| changed(v))
        {
            continue;
        }
        let ps = match a.rel {
            Rel::Ge => vec![a.poly.clone(), negated(&a.poly)],
            Rel::Eq => vec![a.poly.clone(), a.poly.scale(-1)],
            Rel::Ne => vec![],
        };
        for p in ps {
            if sides.len() < 2 * MAX_ATOMS && !sides.contains(&p) {
                sides.push(p);
            }
        }
    }
    // An atom whose open side no lap stays on only peels the loop's first laps: such atoms
    // come after those that leave a loop on each side.
    let mut peel = None;
    for p in sides {
        let other = negated(&p);
        if !closed(&laps, &p, solver)
            || !occurs(&laps, &p, solver)
            || !occurs(&laps, &other, solver)
            || closed(&laps, &other, solver)
        {
            continue;
        }
        if stays(&laps, &other, solver) {
            return Some(Atom::ge0(p));
        }
        peel = peel.or(Some(Atom::ge0(p)));
    }
    peel
}

/// Whether some of `laps` can go from a state where `p ≥ 0` holds to one where it holds
/// (unknown counts as yes).
fn stays(laps: &[&Transition], p: &Poly, solver: &mut dyn Solver) -> bool {
    let var = |v| smt::int_var("v", v);
    laps.iter().any(|t| {
        let after = p.substitute(&|v| t.update()[v].clone());
        let mut q: Vec<Term> = smt::guard_terms(&t.guard, &var);
        q.push(smt::atom_term(&Atom::ge0(p.clone()), &var));
        q.push(smt::atom_term(&Atom::ge0(after), &var));
        !matches!(solver.is_sat(&q), Ok(false))
    })
}

/// `−p − 1`: over ℤ, `p ≥ 0` fails exactly when this is `≥ 0`.
fn negated(p: &Poly) -> Poly {
    p.scale(-1).sub(&Poly::constant(1))
}

/// Whether `p ≥ 0` holds after each of `laps` whenever it held before (Z3; unknown counts as
/// not closed).
fn closed(laps: &[&Transition], p: &Poly, solver: &mut dyn Solver) -> bool {
    let var = |v| smt::int_var("v", v);
    laps.iter().all(|t| {
        let after = p.substitute(&|v| t.update()[v].clone());
        let mut q: Vec<Term> = smt::guard_terms(&t.guard, &var);
        q.push(smt::atom_term(&Atom::ge0(p.clone()), &var));
        q.push(smt::atom_term(&Atom::ge0(negated(&after)), &var));
        matches!(solver.is_sat(&q), Ok(false))
    })
}

/// Whether some of `laps` is enabled where `p ≥ 0` holds (unknown counts as yes).
fn occurs(laps: &[&Transition], p: &Poly, solver: &mut dyn Solver) -> bool {
    let var = |v| smt::int_var("v", v);
    laps.iter().any(|t| {
        let mut q: Vec<Term> = smt::guard_terms(&t.guard, &var);
        q.push(smt::atom_term(&Atom::ge0(p.clone()), &var));
        !matches!(solver.is_sat(&q), Ok(false))
    })
}

/// `its` with `head` split on `closed` (`s ≥ 0`, closed under the head's self-loops): a new
/// copy of `head` for the states where it holds, `head` itself for the others. Transitions
/// into `head` go to the copy of the side their update establishes (one copy per side, the
/// side added to the guard); transitions out of it leave both copies, each with its side.
/// Returns the ITS and the new copy.
fn split_head(its: &Its, head: usize, closed: &Atom) -> (Its, usize) {
    let mut out = its.clone();
    let name = fresh_name(its, format!("{}_p", its.locations[head]));
    let copy = out.location(&name);
    let open = Atom::ge0(negated(&closed.poly));
    out.transitions.clear();
    for t in &its.transitions {
        let sources: Vec<(usize, Option<&Atom>)> = if t.source == head {
            vec![(head, Some(&open)), (copy, Some(closed))]
        } else {
            vec![(t.source, None)]
        };
        for (source, at) in sources {
            let mut base = t.clone();
            base.source = source;
            base.guard.extend(at.cloned());
            if t.target() != head {
                out.transitions.push(base);
                continue;
            }
            for (target, side) in [(head, &open), (copy, closed)] {
                // Closed: from the copy the open side is unreachable (no query needed).
                if source == copy && target == head {
                    continue;
                }
                let mut c = base.clone();
                c.targets[0].0 = target;
                c.guard.push(Atom {
                    poly: side.poly.substitute(&|v| t.update()[v].clone()),
                    rel: Rel::Ge,
                });
                out.transitions.push(c);
            }
        }
    }
    (out, copy)
}

/// A location name not used yet.
fn fresh_name(its: &Its, base: String) -> String {
    let mut name = base;
    while its.locations.contains(&name) {
        name.push('_');
    }
    name
}
