//! Linear invariants, checked inductive by Z3 (the Houdini scheme, a polyhedra-style
//! relational domain restricted to candidates): per location, candidate inequalities
//! `p ≥ 0` over the program variables are
//!
//! * the interval bounds of [`super::invariants`]' analysis,
//! * the linear atoms of the guards of the transitions leaving the location (loop
//!   conditions often hold on every visit),
//! * the guard atoms of the transitions entering it, over variables they do not update
//!   or copy to another variable (then renamed),
//! * **difference bounds** `x − y ≥ c` and `x − y ≥ 0` for variables compared in a guard.
//!
//! A candidate is kept only while every transition into its location re-establishes it
//! from the candidates kept at the source (`inv(l) ∧ guard ⇒ cand(ū)`), and nothing is
//! assumed at the start location; failing candidates are dropped until the remaining
//! set is inductive (the greatest inductive subset). The kept invariants are added to
//! the guards of the transitions leaving their location: every reachable state
//! satisfies them, so the runs stay the same.

use crate::its::{Atom, Its, Rel, Transition};
use crate::poly::Poly;
use crate::smt;
use std::time::Duration;
use symex_expr::Term;

/// At most this many candidates per location (larger systems keep the first ones).
const MAX_CANDIDATES: usize = 24;

fn push(c: &mut Vec<Atom>, a: Atom) {
    if c.len() < MAX_CANDIDATES && a.poly.as_constant().is_none() && !c.contains(&a) {
        c.push(a);
    }
}

/// The candidates per location (see the module comment); `intervals` are the atoms of
/// the interval analysis per location; `relational` adds [`relational_candidates`].
fn candidates(its: &Its, intervals: &[Vec<Atom>], relational: bool) -> Vec<Vec<Atom>> {
    let n = its.arity();
    let program_only = |p: &Poly| p.is_linear() && p.vars().iter().all(|&v| v < n);
    let mut cands = vec![Vec::new(); its.locations.len()];
    for (l, c) in cands.iter_mut().enumerate() {
        if l == its.start {
            continue;
        }
        for t in its.transitions.iter().filter(|t| t.source == l) {
            for a in &t.guard {
                if !program_only(&a.poly) {
                    continue;
                }
                match a.rel {
                    Rel::Ge => push(c, a.clone()),
                    Rel::Eq => {
                        push(c, Atom::ge0(a.poly.clone()));
                        push(c, Atom::ge0(a.poly.scale(-1)));
                    }
                    Rel::Ne => {}
                }
                // Difference bounds between the variables the atom compares.
                let vars: Vec<usize> = a.poly.vars().into_iter().collect();
                for &x in &vars {
                    for &y in &vars {
                        if x != y {
                            push(c, Atom::ge0(Poly::var(x).sub(&Poly::var(y))));
                        }
                    }
                }
            }
        }
        // Entry guard atoms over variables the entry keeps; those it copies (renamed)
        // come after the intervals: the candidate limit keeps the older ones first.
        let mut renamed_atoms = Vec::new();
        for t in its.transitions.iter().filter(|t| t.target() == l) {
            for a in &t.guard {
                if a.rel != Rel::Ge || !program_only(&a.poly) {
                    continue;
                }
                // Over the values after the step: each variable of the atom renamed to
                // the one its value was copied to (itself when not updated; a swap
                // `(A, B) ↦ (B, A)` in WTC's `gcd` moves `A ≥ 1` to `B ≥ 1`).
                let moved = |w: usize| {
                    if t.update()[w] == Poly::var(w) {
                        return Some(w);
                    }
                    (0..n).find(|&v| t.update()[v] == Poly::var(w))
                };
                let renamed: Option<Vec<(usize, usize)>> = a
                    .poly
                    .vars()
                    .into_iter()
                    .map(|w| Some((w, moved(w)?)))
                    .collect();
                let Some(renamed) = renamed else { continue };
                if renamed.iter().all(|(w, v)| w == v) {
                    push(c, a.clone());
                    continue;
                }
                let to = |w: usize| {
                    renamed
                        .iter()
                        .find(|(x, _)| *x == w)
                        .map_or(Poly::var(w), |(_, v)| Poly::var(*v))
                };
                renamed_atoms.push(Atom::ge0(a.poly.substitute(&to)));
            }
        }
        for a in &intervals[l] {
            push(c, a.clone());
        }
        for a in renamed_atoms {
            push(c, a);
        }
    }
    if relational {
        let extra = relational_candidates(its, &cands);
        for (c, more) in cands.iter_mut().zip(extra) {
            for a in more {
                push_extra(c, a);
            }
        }
    }
    cands
}

/// More candidates per location, up to [`MAX_EXTRA`] beyond the others: the relations
/// an entry establishes between a variable it assigns and variables it keeps (`C' = A −
/// 1`: `A − C − 1 ≥ 0` and `C − A + 1 ≥ 0`; T2's `new_ex` needs `C ≤ A − 1` to bound
/// `A` where `C ≥ 1`), and the candidates of the source of an entry over variables the
/// entry keeps, passed on along the graph (T2's `eric`: `A ≥ B`, a guard of the first
/// transition, holds at every location of the loop but is compared in none of them).
fn relational_candidates(its: &Its, cands: &[Vec<Atom>]) -> Vec<Vec<Atom>> {
    let n = its.arity();
    let mut out: Vec<Vec<Atom>> = vec![Vec::new(); its.locations.len()];
    let kept = |t: &Transition, p: &Poly| p.vars().iter().all(|&w| t.update()[w] == Poly::var(w));
    for t in &its.transitions {
        let l = t.target();
        if l == its.start {
            continue;
        }
        for (v, u) in t.update().iter().enumerate() {
            let program_only = u.is_linear() && u.vars().iter().all(|&w| w < n && w != v);
            if *u == Poly::var(v) || !program_only || u.vars().is_empty() || !kept(t, u) {
                continue;
            }
            let diff = Poly::var(v).sub(u);
            push_extra(&mut out[l], Atom::ge0(diff.clone()));
            push_extra(&mut out[l], Atom::ge0(diff.scale(-1)));
        }
    }
    // Forward along kept variables, a few rounds (each round one more transition).
    for _ in 0..PROPAGATION_ROUNDS {
        let mut changed = false;
        for t in &its.transitions {
            let l = t.target();
            if l == its.start || t.source == l {
                continue;
            }
            let from: Vec<Atom> = cands[t.source]
                .iter()
                .chain(&out[t.source])
                .filter(|a| kept(t, &a.poly))
                .cloned()
                .collect();
            for a in from {
                if !cands[l].contains(&a) && !out[l].contains(&a) && out[l].len() < MAX_EXTRA {
                    out[l].push(a);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    out
}

/// Relational candidates per location beyond [`MAX_CANDIDATES`].
const MAX_EXTRA: usize = 12;

/// Rounds of passing candidates on along transitions.
const PROPAGATION_ROUNDS: usize = 4;

fn push_extra(c: &mut Vec<Atom>, a: Atom) {
    if c.len() < MAX_CANDIDATES + MAX_EXTRA && a.poly.as_constant().is_none() && !c.contains(&a) {
        c.push(a);
    }
}

/// The solver queries one [`houdini`] run may ask. A count, not a time, so that the invariants
/// (and every prover after them) are the same on a quiet and on a loaded machine: with a 20 s
/// budget of time T2's `svdcmp` asked 1 117 queries at load 7 and 561 at load 16, `cover`
/// 7 007 and 3 071, and fell back to the interval invariants under load.
pub const HOUDINI_QUERIES: u64 = 40_000;

/// The greatest inductive subset of the candidates, per location, each query within
/// `timeout`; `None` when its [`HOUDINI_QUERIES`] (or an enclosing query budget, or the
/// deadline) run out: then nothing may be assumed.
fn houdini(its: &Its, mut inv: Vec<Vec<Atom>>, timeout: Duration) -> Option<Vec<Vec<Atom>>> {
    let _budget = smt::query_budget(HOUDINI_QUERIES);
    let mut solver = smt::solver(timeout);
    let var = |v: usize| smt::int_var("v", v);
    loop {
        let mut changed = false;
        for t in &its.transitions {
            if inv[t.target()].is_empty() {
                continue;
            }
            if smt::out_of_budget() {
                return None;
            }
            let mut pc: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
            pc.extend(inv[t.source].iter().map(|a| smt::atom_term(a, &var)));
            let next: Vec<Term> = t.update().iter().map(|u| smt::poly_term(u, &var)).collect();
            let post = |v: usize| next[v].clone();
            let goal = |a: &Atom| smt::atom_term(a, &post);
            let all: Vec<Term> = inv[t.target()].iter().map(goal).collect();
            if matches!(solver.must_be_true(&pc, &Term::and_all(&all)), Ok(true)) {
                continue;
            }
            // Some candidate fails: keep those proved one by one.
            let before = inv[t.target()].len();
            let kept: Vec<Atom> = inv[t.target()]
                .iter()
                .filter(|a| matches!(solver.must_be_true(&pc, &goal(a)), Ok(true)))
                .cloned()
                .collect();
            changed |= kept.len() != before;
            inv[t.target()] = kept;
        }
        if !changed {
            return Some(inv);
        }
    }
}

/// Checked linear invariants per location (guard atoms over the program variables).
pub fn linear_invariants(its: &Its, timeout: Duration) -> Option<Vec<Vec<Atom>>> {
    invariants(its, timeout, false)
}

/// As [`linear_invariants`], with the relational candidates too (assignments' relations,
/// candidates passed on along kept variables): for the refinements that retry an ITS
/// without a proof. Not in the first preprocessing: more guard atoms there change which
/// ranking functions Farkas finds, and on the every-4th sample three linear bounds
/// became quadratic (SAS10's `maccarthy91`, SPEED's `NestedSingle`, T2's `rlft3`).
pub fn relational_invariants(its: &Its, timeout: Duration) -> Option<Vec<Vec<Atom>>> {
    invariants(its, timeout, true)
}

fn invariants(its: &Its, timeout: Duration, relational: bool) -> Option<Vec<Vec<Atom>>> {
    if its.has_multi_targets() {
        return None;
    }
    let intervals = super::invariants::interval_candidates(its);
    let cands = candidates(its, &intervals, relational);
    let capped = some_left_out(&intervals, &cands);
    let mut inv = houdini(its, cands, timeout)?;
    if capped && super::invariants::inductive(its, &intervals, timeout) {
        for (kept, iv) in inv.iter_mut().zip(&intervals) {
            for a in iv {
                if !kept.contains(a) {
                    kept.push(a.clone());
                }
            }
        }
    }
    inv[its.start].clear();
    (!inv.iter().all(|a| a.is_empty())).then_some(inv)
}

/// Whether [`MAX_CANDIDATES`] kept some interval atom out of Houdini's candidates. Systems
/// with many variables fill a location's candidates with guard atoms and the first variables'
/// intervals: T2's `eric2` (29 variables) lost `O = … = B1 = 0`, which hold everywhere after
/// the start and without which no linear function ranks its loops. Then all the intervals are
/// added: together they are inductive by construction (a post-fixed point of the interval
/// analysis), one query per transition confirms them at once, and they hold beside whatever
/// Houdini keeps (both are facts true in every reachable state; Houdini may have dropped an
/// interval atom that needed a left-out one).
fn some_left_out(intervals: &[Vec<Atom>], cands: &[Vec<Atom>]) -> bool {
    intervals
        .iter()
        .zip(cands)
        .any(|(iv, c)| iv.iter().any(|a| !c.contains(a)))
}

/// Adds checked linear invariants to the guards of the transitions leaving their
/// location (the ITS is returned unchanged when there are none).
pub fn add_linear_invariants(its: &Its, timeout: Duration) -> Its {
    add(its, linear_invariants(its, timeout), timeout)
}

/// As [`add_linear_invariants`], with [`relational_invariants`].
pub fn add_relational_invariants(its: &Its, timeout: Duration) -> Its {
    add(its, relational_invariants(its, timeout), timeout)
}

fn add(its: &Its, inv: Option<Vec<Vec<Atom>>>, timeout: Duration) -> Its {
    let Some(inv) = inv else {
        // Out of time (large systems): the interval invariants alone, checked at once.
        return super::add_interval_invariants(its, timeout);
    };
    let mut out = its.clone();
    for t in &mut out.transitions {
        for a in &inv[t.source] {
            if !t.guard.contains(a) {
                t.guard.push(a.clone());
            }
        }
    }
    out
}
