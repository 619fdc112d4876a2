//! Control-flow refinement by partial evaluation (Domenech, Gallagher & Genaim 2019, as
//! KoAT2 uses it on the SCCs it cannot bound, Giesl et al. 2022): the locations of an SCC
//! are unfolded into *versions* `(l, φ)`, where `φ` is a set of properties of `l` — the
//! guard atoms of the transitions leaving `l` and their negations — that hold whenever a
//! run is there. From version `(l, φ)`, transition `t: l → l'` (guard `g`, update `ū`)
//! becomes `(l, φ) → (l', φ')` with guard `g ∧ φ`, where `φ'` is every property `p` of
//! `l'` with `φ ∧ g ⇒ p(ū)` (Z3), and disappears when `φ ∧ g` is unsatisfiable. Phases of
//! a loop (counting up while `x < m`, then down) become versions of their own, so that
//! the SCC falls apart into smaller ones that linear ranking functions handle.
//!
//! Soundness (every run of the original is a run of the result with the same cost): a
//! run entering the SCC by `e` reaches the version whose properties `e` establishes; by
//! induction the values at a version satisfy its `φ`, so the copy of the next transition
//! is enabled with the same temporaries, its update and cost are the original's, and the
//! properties of the version it reaches hold afterwards. Every run of the result is one
//! of the original (guards only get stronger), so bounds and termination carry over.
//! The property sets are finite, so the unfolding ends; it gives up beyond
//! [`MAX_VERSIONS`] versions per SCC location (and in total).

use crate::its::{Atom, Its, Rel, Transition};
use crate::poly::Poly;
use crate::smt;
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};
use symex_expr::Term;
use symex_solver::Solver;

/// Versions per location of the refined SCCs, on average, before the refinement gives up.
pub const MAX_VERSIONS: usize = 6;

/// Properties per SCC (the first ones found).
const MAX_PROPERTIES: usize = 32;

/// The refinement of `its` on the location sets `sccs` (each an SCC of its graph): the
/// refined ITS (locations outside stay, versions are added, the old locations of the
/// SCCs keep no transitions unless one is the start, which stays the version `(start,
/// ∅)`) and, per transition of it, the index of the original transition it copies.
/// `None` when a location needed more versions than allowed, the deadline passed, or
/// nothing was split.
pub fn partial_evaluate(
    its: &Its,
    sccs: &[Vec<usize>],
    timeout: Duration,
    deadline: Instant,
) -> Option<(Its, Vec<usize>)> {
    if its.has_multi_targets() {
        return None;
    }
    let inside: BTreeSet<usize> = sccs.iter().flatten().copied().collect();
    // The properties of the unsplit ITS: the split's own atoms would only add versions.
    let props = properties(its, sccs);
    let (split, split_origin) = split_by_deltas(its, &inside);
    evaluate(&split, &split_origin, inside, props, timeout, deadline)
}

/// [`partial_evaluate`] with the properties of [`constant_properties`] alone: `v = c` for
/// each variable that a transition of an SCC sets to a constant `c` and a guard there
/// compares (Flores-Montoya's `sipmamergesort`: after `V := 0` the way back to the chunk
/// loop's head needs `V ≥ 1`, so those runs leave the cycle, which then has the ranking
/// function `M`, `V + 1`; all properties at once give more versions than allowed). `None`
/// when there are no such variables, or as [`partial_evaluate`].
pub fn partial_evaluate_constants(
    its: &Its,
    sccs: &[Vec<usize>],
    timeout: Duration,
    deadline: Instant,
) -> Option<(Its, Vec<usize>)> {
    if its.has_multi_targets() {
        return None;
    }
    let props = constant_properties(its, sccs);
    if props.values().all(Vec::is_empty) {
        return None;
    }
    let inside: BTreeSet<usize> = sccs.iter().flatten().copied().collect();
    let origin: Vec<usize> = (0..its.transitions.len()).collect();
    evaluate(its, &origin, inside, props, timeout, deadline)
}

/// The versions of the locations `inside` with the properties `props`, as
/// [`partial_evaluate`] describes; `split_origin` maps the transitions of `its` to those of
/// the ITS the caller got.
fn evaluate(
    its: &Its,
    split_origin: &[usize],
    inside: BTreeSet<usize>,
    props: HashMap<usize, Vec<Atom>>,
    timeout: Duration,
    deadline: Instant,
) -> Option<(Its, Vec<usize>)> {
    let mut pe = Evaluator {
        its,
        inside: inside.clone(),
        props,
        versions: HashMap::new(),
        out: its.clone(),
        origin: Vec::new(),
        work: Vec::new(),
        solver: smt::solver(timeout),
        deadline,
    };
    pe.out.transitions.clear();
    if inside.contains(&its.start) {
        pe.versions.insert((its.start, BTreeSet::new()), its.start);
        pe.work.push((its.start, BTreeSet::new()));
    }
    // The transitions outside the SCCs, entries retargeted to the versions they reach.
    for (i, t) in its.transitions.iter().enumerate() {
        if inside.contains(&t.source) {
            continue;
        }
        let mut copy = t.clone();
        if inside.contains(&t.target()) {
            let phi = pe.post(&BTreeSet::new(), t)?;
            let Some(phi) = phi else { continue };
            copy.targets[0].0 = pe.version(t.target(), phi)?;
        }
        pe.out.transitions.push(copy);
        pe.origin.push(i);
    }
    while let Some((l, phi)) = pe.work.pop() {
        pe.unfold(l, &phi)?;
    }
    let versions = pe.versions.len();
    let origin = pe.origin.iter().map(|&i| split_origin[i]).collect();
    (versions > inside.len()).then_some((pe.out, origin))
}

/// Splits at most this many changes per transition.
const MAX_SPLITS: usize = 2;

/// `its` with each transition inside the SCCs split by the sign of the changes its update
/// makes to the variables the SCCs' guards compare (`A' = A + B` under `A ≥ 1`: one copy
/// with `B ≥ 0`, one with `B ≤ −1`; over ℤ the copies cover the guard, so the runs stay
/// the same), and per transition of the result the index of the one it copies. Partial
/// evaluation cannot tell the phases of `A` apart where nothing is known of `B` (T2's
/// `polyrank3`: `A' = A + B, B' = B − 1` and `A' = A + C, C' = C − 1`); a copy knows it.
fn split_by_deltas(its: &Its, inside: &BTreeSet<usize>) -> (Its, Vec<usize>) {
    let n = its.arity();
    let is_inner = |t: &Transition| inside.contains(&t.source) && inside.contains(&t.target());
    let compared: BTreeSet<usize> = its
        .transitions
        .iter()
        .filter(|t| inside.contains(&t.source))
        .flat_map(|t| t.guard.iter().flat_map(|a| a.poly.vars()))
        .filter(|&v| v < n)
        .collect();
    let mut out = its.clone();
    out.transitions.clear();
    let mut origin = Vec::new();
    for (i, t) in its.transitions.iter().enumerate() {
        let mut copies = vec![t.clone()];
        if is_inner(t) {
            let mut deltas: Vec<Poly> = Vec::new();
            for &v in &compared {
                let d = t.update()[v].sub(&Poly::var(v));
                if d.is_linear()
                    && d.as_constant().is_none()
                    && d.vars().iter().all(|&w| w < n)
                    && !deltas.contains(&d)
                    && deltas.len() < MAX_SPLITS
                {
                    deltas.push(d);
                }
            }
            for d in deltas {
                let below = d.scale(-1).sub(&Poly::constant(1));
                copies = copies
                    .into_iter()
                    .flat_map(|c| {
                        [d.clone(), below.clone()].map(|side| {
                            let mut c = c.clone();
                            c.guard.push(Atom::ge0(side));
                            c
                        })
                    })
                    .collect();
            }
        }
        for c in copies {
            out.transitions.push(c);
            origin.push(i);
        }
    }
    (out, origin)
}

/// The transitions that leave a location of `locs` (to one of them or out of the SCC).
fn leaving<'a>(its: &'a Its, locs: &[usize]) -> Vec<&'a Transition> {
    its.transitions
        .iter()
        .filter(|t| locs.contains(&t.source))
        .collect()
}

/// The candidate properties `p ≥ 0` per location: for every location of an SCC the same
/// ones, the linear guard atoms (over program variables) of the transitions leaving the
/// SCC's locations and of those entering it, their negations and their non-strict
/// reverses (`p ≤ 0`); `p = 0` counts as `p ≥ 0` and `−p ≥ 0`. (Per
/// location only its own guards would lose a phase between the locations of a loop
/// body: SPEED's `cyclic` compares `C` with `A` at one location and with `B` at the
/// next.) Atoms in every one of those guards (invariants) are left out: they hold in
/// every version anyway.
fn properties(its: &Its, sccs: &[Vec<usize>]) -> HashMap<usize, Vec<Atom>> {
    let n = its.arity();
    let mut props = HashMap::new();
    for locs in sccs {
        let outs = leaving(its, locs);
        let everywhere = |a: &Atom| outs.iter().all(|t| t.guard.contains(a));
        // The guards of the entries too: what holds on entry and the loop keeps (SPEED's
        // `cyclic`: `B ≥ A + 1` rules out the reset of the first phase in the second).
        let entries = its
            .transitions
            .iter()
            .filter(|t| !locs.contains(&t.source) && locs.contains(&t.target()));
        let mut ps: Vec<Atom> = Vec::new();
        for a in outs.iter().copied().chain(entries).flat_map(|t| &t.guard) {
            if !a.poly.is_linear()
                || a.poly.vars().iter().any(|&v| v >= n)
                || a.poly.as_constant().is_some()
                || everywhere(a)
            {
                continue;
            }
            let sides = match a.rel {
                Rel::Ge => vec![a.poly.clone()],
                Rel::Eq => vec![a.poly.clone(), a.poly.scale(-1)],
                Rel::Ne => vec![],
            };
            for p in sides {
                add_sides(&mut ps, &p);
            }
        }
        // The signs of the changes the SCC's updates make (`A' = A + B`: `B ≥ 0`, `B ≤ −1`,
        // `B ≤ 0`): a variable that grows in one phase and shrinks in the next (T2's
        // `polyrank3`, `A' = A + B, B' = B − 1`), or values whose difference a step
        // fixes (LICS'04's `choice`, `A' = A − 1, B' = A`: `B − A = 1` afterwards).
        let inner = its
            .transitions
            .iter()
            .filter(|t| locs.contains(&t.source) && locs.contains(&t.target()));
        for t in inner {
            for (v, u) in t.update().iter().enumerate() {
                let delta = u.sub(&Poly::var(v));
                if delta.is_linear()
                    && delta.as_constant().is_none()
                    && delta.vars().iter().all(|&w| w < n)
                {
                    add_sides(&mut ps, &delta);
                }
            }
        }
        for &l in locs {
            props.insert(l, ps.clone());
        }
    }
    props
}

/// The candidate properties per location of [`partial_evaluate_constants`]: `v − c ≥ 0`
/// and `c − v ≥ 0` for each program variable `v` that a transition inside an SCC sets to the
/// constant `c` and a guard of a transition leaving one of its locations compares, up to
/// [`MAX_PROPERTIES`].
fn constant_properties(its: &Its, sccs: &[Vec<usize>]) -> HashMap<usize, Vec<Atom>> {
    let n = its.arity();
    let mut props = HashMap::new();
    for locs in sccs {
        let outs = leaving(its, locs);
        let compared: BTreeSet<usize> = outs
            .iter()
            .flat_map(|t| t.guard.iter().flat_map(|a| a.poly.vars()))
            .filter(|&v| v < n)
            .collect();
        let mut ps: Vec<Atom> = Vec::new();
        for t in outs.iter().filter(|t| locs.contains(&t.target())) {
            for (v, u) in t.update().iter().enumerate() {
                let Some(c) = u.as_constant() else { continue };
                if !compared.contains(&v) {
                    continue;
                }
                let minus_c = Poly::var(v).sub(&Poly::constant(c));
                for q in [minus_c.clone(), minus_c.scale(-1)] {
                    let atom = Atom::ge0(q);
                    if ps.len() < MAX_PROPERTIES && !ps.contains(&atom) {
                        ps.push(atom);
                    }
                }
            }
        }
        for &l in locs {
            props.insert(l, ps.clone());
        }
    }
    props
}

/// Adds `p ≥ 0`, its negation `p ≤ −1` over ℤ, and `p ≤ 0` (a count up to the bound of
/// `x < n` ends at `x = n`, where `x ≤ n` still holds: SPEED's `Example4` needs it to
/// tell its phases apart), up to [`MAX_PROPERTIES`].
fn add_sides(ps: &mut Vec<Atom>, p: &Poly) {
    let neg = p.scale(-1);
    for q in [p.clone(), neg.sub(&Poly::constant(1)), neg] {
        let atom = Atom::ge0(q);
        if ps.len() < MAX_PROPERTIES && !ps.contains(&atom) {
            ps.push(atom);
        }
    }
}

type Version = (usize, BTreeSet<usize>);

struct Evaluator<'a> {
    its: &'a Its,
    inside: BTreeSet<usize>,
    props: HashMap<usize, Vec<Atom>>,
    /// Location index of each version.
    versions: HashMap<Version, usize>,
    out: Its,
    origin: Vec<usize>,
    work: Vec<Version>,
    solver: Box<dyn Solver>,
    deadline: Instant,
}

impl Evaluator<'_> {
    /// The location of version `(l, phi)`, added (and queued) if new; `None` beyond the
    /// version limit.
    fn version(&mut self, l: usize, phi: BTreeSet<usize>) -> Option<usize> {
        let key = (l, phi);
        if let Some(&loc) = self.versions.get(&key) {
            return Some(loc);
        }
        let of_l = self.versions.keys().filter(|(m, _)| *m == l).count();
        if of_l >= 2 * MAX_VERSIONS || self.versions.len() >= MAX_VERSIONS * self.inside.len() {
            return None;
        }
        let mut name = format!("{}_v{of_l}", self.its.locations[l]);
        while self.out.locations.contains(&name) {
            name.push('_');
        }
        let loc = self.out.location(&name);
        self.versions.insert(key.clone(), loc);
        self.work.push(key);
        Some(loc)
    }

    /// The atoms of `phi` at `l`.
    fn atoms(&self, l: usize, phi: &BTreeSet<usize>) -> Vec<Atom> {
        phi.iter().map(|&k| self.props[&l][k].clone()).collect()
    }

    /// Copies every transition leaving `l` to version `(l, phi)`.
    fn unfold(&mut self, l: usize, phi: &BTreeSet<usize>) -> Option<()> {
        let source = self.versions[&(l, phi.clone())];
        let extra = self.atoms(l, phi);
        let its = self.its;
        for (i, t) in its.transitions.iter().enumerate() {
            if t.source != l {
                continue;
            }
            let mut copy = t.clone();
            copy.source = source;
            for a in &extra {
                if !copy.guard.contains(a) {
                    copy.guard.push(a.clone());
                }
            }
            let target = if self.inside.contains(&t.target()) {
                match self.post(phi, t)? {
                    Some(next) => Some(self.version(t.target(), next)?),
                    None => None,
                }
            } else if self.feasible(&copy.guard)? {
                Some(t.target())
            } else {
                None
            };
            let Some(target) = target else { continue };
            copy.targets[0].0 = target;
            self.out.transitions.push(copy);
            self.origin.push(i);
        }
        Some(())
    }

    fn feasible(&mut self, guard: &[Atom]) -> Option<bool> {
        if Instant::now() > self.deadline || smt::out_of_budget() {
            return None;
        }
        let var = |v| smt::int_var("v", v);
        let terms: Vec<Term> = guard.iter().map(|a| smt::atom_term(a, &var)).collect();
        // Kept when the solver cannot tell.
        Some(!matches!(self.solver.is_sat(&terms), Ok(false)))
    }

    /// The properties of `t`'s target that hold after `t` from version `(t.source, phi)`:
    /// `Some(None)` when `t` cannot be taken there, `None` past the deadline.
    fn post(&mut self, phi: &BTreeSet<usize>, t: &Transition) -> Option<Option<BTreeSet<usize>>> {
        if Instant::now() > self.deadline || smt::out_of_budget() {
            return None;
        }
        let var = |v| smt::int_var("v", v);
        let mut pre: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
        if self.inside.contains(&t.source) {
            pre.extend(
                self.atoms(t.source, phi)
                    .iter()
                    .map(|a| smt::atom_term(a, &var)),
            );
        }
        let model = match self.solver.model(&pre) {
            Ok(None) => return Some(None),
            Ok(Some(m)) => Some(m),
            Err(_) => None,
        };
        let its = self.its;
        let width = its.arity() + t.temps.len();
        let values: Option<Vec<i128>> = model.map(|m| {
            (0..width)
                .map(|v| m.value_of(&var(v)).as_int().unwrap_or(0))
                .collect()
        });
        let mut next = BTreeSet::new();
        let props = self.props[&t.target()].clone();
        for (k, p) in props.iter().enumerate() {
            let after = p.poly.substitute(&|v| t.update()[v].clone());
            // One model refutes most properties without a query.
            if let Some(vals) = &values {
                if after.eval(vals).is_some_and(|x| x < 0) {
                    continue;
                }
            }
            let holds = Term::int(0).ile(&smt::poly_term(&after, &var));
            if matches!(self.solver.must_be_true(&pre, &holds), Ok(true)) {
                next.insert(k);
            }
        }
        Some(Some(next))
    }
}
