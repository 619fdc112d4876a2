//! Runtime bounds of triangular weakly non-linear (twn) loops from their closed forms
//! (Lommen, Meyer & Giesl, IJCAR 2022; Frohn & Giesl's twn termination): a location whose
//! self-loops share one update that is twn on the variables the guards depend on
//! ([`closed_form`]: `x' = c·x + d`, `d` over variables updated before `x`). A negative `c`
//! makes signs alternate: then the loop is unrolled once (`x'' = c²·x + …`), at most
//! `2·N + 1` steps for `N` of the unrolled loop.
//!
//! An atom `g(x) ≥ 0` reads `(1/L)·Σ_{(b,k)} α_{b,k}(x)·n^k·b^n` after `n` steps (`α`
//! integral). Its *eventual sign* is that of the first non-zero `α` in the order of growth
//! (bases, then powers of `n`, descending; base-0 terms vanish from `n = 1` on). If it is
//! negative, at `(B, K)`, the atom is negative for every `n ≥ N = 1 + Σ_i w_i·|α_i|` over
//! the terms `i` after the first (only those below the leading one are non-zero besides it)
//! with `w_i = m·C^{k_i+1}·(k_i+1)!` (`m` of them, `C ≥ 2` the largest base): each other term is
//! below `n^K·B^n/m` — for the same base as `n^{K−k} ≥ n > m·|α|`, for a smaller base `b` as
//! `(B/b)^n ≥ e^{n/B} > (n/B)^{k+1}/(k+1)! ≥ m·|α|·n^k` — and `|α_{B,K}| ≥ 1`. So when Z3
//! proves that from every state satisfying a guard each transition's guard has an atom of
//! negative eventual sign, the loop runs at most `Σ_atoms N` times per entry: a polynomial
//! in the absolute values at the entry.

use crate::closed_form::{self, PolyExp};
use crate::graph;
use crate::its::{Atom, Its, Rel};
use crate::poly::Poly;
use crate::ranking::{self, Decrease};
use crate::smt;
use crate::termination::{self, Limits, SccProof, Termination};
use std::collections::{BTreeMap, BTreeSet};
use symex_expr::Term;
use symex_solver::Solver;

/// A twn loop with its bound.
#[derive(Clone, Debug)]
pub struct TwnLoop {
    /// Its location.
    pub location: usize,
    /// Its transitions (self-loops).
    pub transitions: Vec<usize>,
    /// The factor `c_i` of each variable the guards depend on (`x_i' = c_i·x_i + d_i`).
    pub factors: BTreeMap<usize, i128>,
    /// Iterations per entry, in the absolute values at the entry (non-negative
    /// coefficients).
    pub bound: Poly,
    /// After a change of variables ([`crate::linear_twn`]): the new variable at each
    /// position as a linear form in the old ones (empty without one).
    pub change: Vec<(usize, Poly)>,
    /// Whether [`crate::linear_twn`] bounded the loop unrolled twice.
    pub unrolled: bool,
}

/// An atom after `n` steps: `(base, power of n, α)`, in the order of growth, descending.
type Expanded = Vec<(i128, u32, Poly)>;

/// The twn loop of the self-loops `ts` at `location`, or `None` when they are not of the
/// twn form or Z3 does not prove that they stop.
pub fn analyse(
    its: &Its,
    location: usize,
    ts: &[usize],
    solver: &mut dyn Solver,
) -> Option<TwnLoop> {
    let n = its.arity();
    let mut loops = Vec::new();
    for &i in ts {
        let t = &its.transitions[i];
        if t.source != location || t.targets.len() != 1 || t.target() != location {
            return None;
        }
        loops.push(without_temps(t.update(), ge_atoms(&t.guard)?, n));
    }
    let (update, _) = loops.first()?.clone();
    if loops.iter().any(|(u, _)| *u != update) {
        return None;
    }
    let guards: Vec<Vec<Atom>> = loops.into_iter().map(|(_, g)| g).collect();
    let vars = closed_form::closure(&update, n, &guard_vars(&guards))?;
    let factors: BTreeMap<usize, i128> = vars
        .iter()
        .map(|&v| (v, update[v].linear_coeff(v)))
        .collect();
    let unrolled = factors.values().any(|c| *c < 0);
    let (update, steps) = if unrolled {
        let twice: Vec<Poly> = (0..n)
            .map(|v| {
                if vars.contains(&v) {
                    update[v].substitute(&|w| update[w].clone())
                } else {
                    Poly::var(v)
                }
            })
            .collect();
        (twice, unroll_guards(&guards, &update))
    } else {
        (update, guards.clone())
    };
    let vars = closed_form::closure(&update, n, &guard_vars(&steps))?;
    let closed = closed_form::closed_forms(&update, &vars)?;
    let expanded: Vec<Vec<Expanded>> = steps
        .iter()
        .map(|g| g.iter().map(|a| expand(&a.poly, &closed)).collect())
        .collect::<Option<_>>()?;
    let var = |w: usize| smt::int_var("v", w);
    // The loop's start satisfies one of the original guards.
    let some_guard = Term::or_all(
        &guards
            .iter()
            .map(|g| {
                Term::and_all(
                    &g.iter()
                        .map(|a| smt::atom_term(a, &var))
                        .collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>(),
    );
    for g in &expanded {
        // A state satisfying some guard from which all atoms of `g` stay eventually
        // non-negative would let the loop run on.
        let all_nonneg: Vec<Term> = g.iter().map(|a| eventually_nonneg(a, &var)).collect();
        let query = Term::and_all(&all_nonneg).and(&some_guard);
        if !matches!(solver.must_be_true(&[query], &Term::ff()), Ok(true)) {
            return None;
        }
    }
    let mut bound = Poly::constant(1);
    for atom in expanded.iter().flatten() {
        bound = bound.checked_add(&threshold(atom)?)?;
    }
    if unrolled {
        bound = bound.checked_scale(2)?.checked_add(&Poly::constant(1))?;
    }
    Some(TwnLoop {
        location,
        transitions: ts.to_vec(),
        factors,
        bound,
        change: Vec::new(),
        unrolled: false,
    })
}

/// When ranking functions do not prove termination: in each SCC without a proof, the
/// self-loops of a location that form a twn loop (all of them, else those sharing one
/// update), and a termination proof of the rest, found with the loops' transitions masked
/// (an unsatisfiable guard). A ranking step of that proof keeps a loop's transition among
/// those it is non-increasing on only when the real transition is (checked); otherwise the
/// transition counts as an entry of the step. The SCCs' bounds then come from
/// `complexity`'s twn entries. `None` without such loops or without a proof of the rest.
pub fn prove_with_twn(its: &Its, limits: &Limits) -> Option<(Vec<SccProof>, Vec<TwnLoop>)> {
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    let mut solver = smt::solver(limits.query_timeout.min(termination::QUICK_TIMEOUT));
    let mut loops = Vec::new();
    for locs in termination::unproved_sccs(its, limits) {
        let inside = graph::inside(its, &all, &locs);
        for &l in &locs {
            let selfs: Vec<usize> = inside
                .iter()
                .copied()
                .filter(|&i| its.transitions[i].source == l && its.transitions[i].target() == l)
                .collect();
            if selfs.is_empty() {
                continue;
            }
            // All self-loops as one loop, else those sharing an update; a group that
            // ranking functions bound alone is left to them (tighter bounds, and no twn
            // loop whose entries wait for another's).
            let mut groups: Vec<Vec<usize>> = vec![selfs.clone()];
            for &i in &selfs {
                let u = its.transitions[i].update();
                match groups[1..]
                    .iter_mut()
                    .find(|g| its.transitions[g[0]].update() == u)
                {
                    Some(g) => g.push(i),
                    None => groups.push(vec![i]),
                }
            }
            if groups.len() == 2 {
                groups.pop();
            }
            for g in groups {
                if g.iter()
                    .any(|i| loops.iter().any(|l: &TwnLoop| l.transitions.contains(i)))
                    || rankable(its, &g, limits)
                {
                    continue;
                }
                let lp = analyse(its, l, &g, solver.as_mut())
                    .or_else(|| crate::linear_twn::analyse(its, l, &g, solver.as_mut()));
                // A constant number of steps per entry needs no sizes.
                let lp = match lp {
                    Some(lp) if lp.bound.as_constant().is_some() => Some(lp),
                    lp => crate::few_steps::analyse(its, l, &g, solver.as_mut()).or(lp),
                };
                if let Some(lp) = lp {
                    loops.push(lp);
                }
            }
        }
    }
    if loops.is_empty() {
        return None;
    }
    let masked: BTreeSet<usize> = loops.iter().flat_map(|l| l.transitions.clone()).collect();
    let mut rest = its.clone();
    for &i in &masked {
        rest.transitions[i].guard = vec![Atom::ge0(Poly::constant(-1))];
    }
    let Termination::Yes(proofs) = termination::prove(&rest, limits) else {
        return None;
    };
    let proofs = proofs
        .into_iter()
        .map(|p| unmask(its, p, &masked, solver.as_mut()))
        .collect();
    Some((proofs, loops))
}

/// Whether ranking functions prove that the transitions `ts` alone terminate.
fn rankable(its: &Its, ts: &[usize], limits: &Limits) -> bool {
    let mut alone = its.clone();
    alone.transitions = ts.iter().map(|&i| its.transitions[i].clone()).collect();
    let quick = Limits {
        query_timeout: limits.query_timeout.min(termination::QUICK_TIMEOUT),
        deadline: limits.deadline,
    };
    matches!(termination::prove(&alone, &quick), Termination::Yes(_))
}

/// The proof `p` of the masked ITS for the real one: the masked transitions are removed by
/// no step, and are among a step's non-increasing ones only where the check says so.
fn unmask(
    its: &Its,
    mut p: SccProof,
    masked: &BTreeSet<usize>,
    solver: &mut dyn Solver,
) -> SccProof {
    let in_scc: Vec<usize> = p
        .transitions
        .iter()
        .copied()
        .filter(|i| masked.contains(i))
        .collect();
    for step in &mut p.steps {
        step.removed.retain(|i| !masked.contains(i));
        step.remaining.retain(|i| !masked.contains(i));
        if !step.is_plain() || step.removed.is_empty() {
            continue;
        }
        for &i in &in_scc {
            if ranking::check(solver, &step.function, &its.transitions[i]) != Decrease::Fails {
                step.remaining.push(i);
            }
        }
        step.remaining.sort_unstable();
    }
    p.steps.retain(|s| !s.removed.is_empty());
    p
}

fn guard_vars(guards: &[Vec<Atom>]) -> BTreeSet<usize> {
    guards
        .iter()
        .flatten()
        .flat_map(|a| a.poly.vars())
        .collect()
}

/// The guards of two steps in a row: `g_i(x) ∧ g_j(u(x))` for every pair.
fn unroll_guards(guards: &[Vec<Atom>], update: &[Poly]) -> Vec<Vec<Atom>> {
    let mut out = Vec::new();
    for gi in guards {
        for gj in guards {
            let mut g = gi.clone();
            g.extend(
                gj.iter()
                    .map(|a| Atom::ge0(a.poly.substitute(&|w| update[w].clone()))),
            );
            out.push(g);
        }
    }
    out
}

/// `L·p(x(n))` by terms, in the order of growth, descending, without the base-0 terms
/// (zero from `n = 1` on); `None` for a negative base.
fn expand(p: &Poly, closed: &BTreeMap<usize, PolyExp>) -> Option<Expanded> {
    let e = closed_form::substitute(p, closed)?;
    let mut out = Vec::new();
    for ((b, k), alpha) in e.terms.into_iter().rev() {
        if b < 0 {
            return None;
        }
        if b > 0 {
            out.push((b, k, alpha));
        }
    }
    Some(out)
}

/// `N − 1 = Σ_i m·C^{k_i+1}·(k_i+1)!·|α_i|` (see the module comment), in the absolute
/// values. Only terms below the leading one count, so the fastest-growing term never does
/// and `m` is one less than the number of terms (`B' = A` under `B = 0`: `N = 1`).
fn threshold(atom: &Expanded) -> Option<Poly> {
    let m = atom.len() as i128 - 1;
    let top = atom.iter().map(|(b, _, _)| *b).max().unwrap_or(1).max(2);
    let mut sum = Poly::default();
    for (_, k, alpha) in atom.iter().skip(1) {
        let mut w = m;
        for j in 1..=k + 1 {
            w = w.checked_mul(top)?.checked_mul(j as i128)?;
        }
        sum = sum.checked_add(&alpha.abs_coeffs().checked_scale(w)?)?;
    }
    Some(sum)
}

/// The update and guard with each temporary that the guard fixes (`p ≥ 0 ∧ −p ≥ 0`,
/// `p = ±w + r`, `r` over program variables: FGPSF09's `eval(A) → eval(B)` under
/// `B + 2A ≥ 10 ∧ 10 ≥ 2A + B`) replaced by its value.
fn without_temps(update: &[Poly], guard: Vec<Atom>, n: usize) -> (Vec<Poly>, Vec<Atom>) {
    let mut update = update.to_vec();
    let mut guard = guard;
    loop {
        let temps: BTreeSet<usize> = update
            .iter()
            .flat_map(|p| p.vars())
            .chain(guard_vars(std::slice::from_ref(&guard)))
            .filter(|&w| w >= n)
            .collect();
        let fixed = temps.iter().find_map(|&w| {
            guard.iter().find_map(|a| {
                let c = a.poly.linear_coeff(w);
                let r = a.poly.sub(&Poly::var(w).scale(c));
                let opposite = guard.iter().any(|b| b.poly == a.poly.scale(-1));
                (c.abs() == 1 && opposite && r.vars().iter().all(|&v| v < n))
                    .then(|| (w, r.scale(-c)))
            })
        });
        let Some((w, value)) = fixed else {
            return (update, guard);
        };
        let subst = |p: &Poly| p.substitute(&|v| if v == w { value.clone() } else { Poly::var(v) });
        update = update.iter().map(subst).collect();
        guard = guard.iter().map(|a| Atom::ge0(subst(&a.poly))).collect();
    }
}

/// The atoms as `p ≥ 0` (an equality as two); `None` for a disequality.
fn ge_atoms(guard: &[Atom]) -> Option<Vec<Atom>> {
    let mut out = Vec::new();
    for a in guard {
        match a.rel {
            Rel::Ge => out.push(a.clone()),
            Rel::Eq => {
                out.push(Atom::ge0(a.poly.clone()));
                out.push(Atom::ge0(a.poly.scale(-1)));
            }
            Rel::Ne => return None,
        }
    }
    Some(out)
}

/// The first non-zero `α` (in the order of growth) is positive, or all are zero.
fn eventually_nonneg(atom: &Expanded, var: &dyn Fn(usize) -> Term) -> Term {
    let zero = Term::int(0);
    // From the slowest term up: nonneg_k = α_k > 0 ∨ (α_k = 0 ∧ nonneg_{k+1}).
    atom.iter().rev().fold(Term::tt(), |rest, (_, _, alpha)| {
        let a = smt::poly_term(alpha, var);
        a.igt(&zero).or(&a.eq(&zero).and(&rest))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_ordered_by_growth() {
        // A' = 3A, B' = 2B: B − A − 1 has terms 3^n (−A), 2^n (B) and 1 (−1); B² has 4^n.
        let update = vec![Poly::var(0).scale(3), Poly::var(1).scale(2)];
        let closed = closed_form::closed_forms(&update, &[0, 1].into()).unwrap();
        let p = Poly::var(1).sub(&Poly::var(0)).sub(&Poly::constant(1));
        let e = expand(&p, &closed).unwrap();
        let order: Vec<(i128, u32)> = e.iter().map(|(b, k, _)| (*b, *k)).collect();
        assert_eq!(order, vec![(3, 0), (2, 0), (1, 0)]);
        assert_eq!(e[0].2, Poly::var(0).scale(-1));
        // A' = A + 1: A² − 5 = n² + 2A·n + A² − 5.
        let update = vec![Poly::var(0).add(&Poly::constant(1))];
        let closed = closed_form::closed_forms(&update, &[0].into()).unwrap();
        let e = expand(&Poly::var(0).pow(2).sub(&Poly::constant(5)), &closed).unwrap();
        let order: Vec<(i128, u32)> = e.iter().map(|(b, k, _)| (*b, *k)).collect();
        assert_eq!(order, vec![(1, 2), (1, 1), (1, 0)]);
    }

    #[test]
    fn threshold_makes_the_leading_term_win() {
        // g(n) = −n·2^n + α₁·2^n + α₂·n^3 with the worst signs, for the threshold's n:
        // negative there and at every later n up to 60.
        for (a1, a2) in [(5i128, 3i128), (40, 0), (0, 50), (7, 7)] {
            let atom: Expanded = vec![
                (2, 1, Poly::constant(-1)),
                (2, 0, Poly::constant(a1)),
                (1, 3, Poly::constant(a2)),
            ];
            let n0 = 1 + threshold(&atom).unwrap().as_constant().unwrap();
            for n in n0..n0 + 60 {
                // g(n) / 2^n, which has g's sign.
                let n = n as f64;
                let g = -n + a1 as f64 + a2 as f64 * n.powi(3) * 2f64.powf(-n);
                assert!(g < 0.0, "n = {n}, α = ({a1}, {a2})");
            }
        }
    }
}
