//! Integer tightening of guards (Chvátal–Gomory cuts): over ℤ, `Σ c_i·x_i + k ≥ 0` with
//! `g = gcd(c_i) > 1` is `Σ (c_i/g)·x_i + ⌊k/g⌋ ≥ 0`. Each linear atom is tightened, and
//! so is each sum of two atoms that cancels a variable when the cut says more than the
//! sum: `A ≥ B ∧ A + B ≥ 1` gives `2A ≥ 1`, i.e. `A ≥ 1`. The guards stay equivalent over
//! the integers (every run is kept); the provers, which reason over the rationals
//! (Farkas), see the integer facts: `B' = B − 2A + 1` then decreases `A + B` by 1.
//!
//! In a long guard, an atom that another atom implies on its own is dropped: chaining appends
//! both guards of each step, so a chain of `k` steps through `C ≥ 1`, `C ≥ 2`, … carries all
//! `k` of them, and the Farkas constraints grow with every atom (T2's `cover`: laps of up to
//! 119 steps, each guard hundreds of atoms long, and no ranking function found in time).

use crate::its::{Atom, Its, Rel};
use crate::poly::Poly;
use std::borrow::Cow;
use std::collections::HashMap;

/// Pairs of atoms are combined only in guards with at most this many linear atoms; a guard of more
/// atoms loses those that one other atom implies.
const MAX_ATOMS: usize = 24;

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// The cut of the linear `p ≥ 0`, or `None` when it says nothing more than `p ≥ 0`.
fn cut(p: &Poly) -> Option<Poly> {
    let g = p
        .terms()
        .filter(|(m, _)| !m.is_empty())
        .fold(0, |g, (_, c)| gcd(g, c));
    if g <= 1 {
        return None;
    }
    let (linear, k) = split_constant(p);
    let mut out = Poly::constant(k.div_euclid(g));
    for (m, c) in linear.terms() {
        let (v, _) = m[0];
        out = out.add(&Poly::var(v).scale(c / g));
    }
    Some(out)
}

/// `p` as its non-constant part and its constant term.
fn split_constant(p: &Poly) -> (Poly, i128) {
    let k = p.constant_term();
    (p.sub(&Poly::constant(k)), k)
}

/// The guard without the atoms that one other atom implies: of the atoms `p + k ≥ 0` with the
/// same non-constant part `p` only the one with the least `k` is kept, `p + k ≥ 0` goes when an
/// equation fixes `p` at a value `v` with `v + k ≥ 0`, and so do repeated atoms and true
/// constant ones. The kept atoms stay in their order; the guard is equivalent.
fn drop_implied(guard: &[Atom]) -> Vec<Atom> {
    // The least constant of each non-constant part's `≥` atoms, and the value each equation fixes.
    let parts: Vec<(Poly, i128)> = guard.iter().map(|a| split_constant(&a.poly)).collect();
    let mut least: HashMap<&Poly, i128> = HashMap::new();
    let mut fixed: HashMap<Poly, i128> = HashMap::new();
    for (a, (p, k)) in guard.iter().zip(&parts) {
        match a.rel {
            Rel::Ge => {
                let e = least.entry(p).or_insert(*k);
                *e = (*e).min(*k);
            }
            Rel::Eq => {
                fixed.insert(p.scale(-1), *k);
                fixed.insert(p.clone(), -k);
            }
            Rel::Ne => {}
        }
    }
    let mut out: Vec<Atom> = Vec::with_capacity(guard.len());
    for (a, (p, k)) in guard.iter().zip(&parts) {
        let k = *k;
        if out.contains(a) {
            continue;
        }
        let implied = a.rel == Rel::Ge
            && if p.is_zero() {
                k >= 0
            } else if let Some(v) = fixed.get(p) {
                v.checked_add(k).is_some_and(|s| s >= 0)
            } else {
                least[p] < k
            };
        if !implied {
            out.push(a.clone());
        }
    }
    out
}

/// The guard with every linear `≥` atom tightened and the cuts of cancelling pairs added.
fn tighten_guard(guard: &[Atom], drop_all: bool) -> Vec<Atom> {
    // Only long guards lose their implied atoms unless asked: which of several equally good
    // ranking functions Z3 returns depends on how a guard is written, and on the competition's
    // files dropping the implied atoms of every guard changed some bounds' degrees both ways.
    let long = drop_all || guard.len() > MAX_ATOMS;
    let guard = if long {
        Cow::Owned(drop_implied(guard))
    } else {
        Cow::Borrowed(guard)
    };
    let mut out: Vec<Atom> = guard
        .iter()
        .map(|a| match (a.rel, a.poly.is_linear()) {
            (Rel::Ge, true) => Atom::ge0(cut(&a.poly).unwrap_or_else(|| a.poly.clone())),
            _ => a.clone(),
        })
        .collect();
    let ge: Vec<Poly> = out
        .iter()
        .filter(|a| a.rel == Rel::Ge && a.poly.is_linear() && a.poly.degree() == 1)
        .map(|a| a.poly.clone())
        .collect();
    if ge.len() > MAX_ATOMS {
        return out;
    }
    for (i, p) in ge.iter().enumerate() {
        for q in &ge[i + 1..] {
            for v in p.vars() {
                let (a, b) = (p.linear_coeff(v), q.linear_coeff(v));
                if a == 0 || b == 0 || a.signum() == b.signum() {
                    continue;
                }
                let sum = p.scale(b.abs()).add(&q.scale(a.abs()));
                if let Some(c) = cut(&sum).filter(|c| c.degree() == 1) {
                    let atom = Atom::ge0(c);
                    if !out.contains(&atom) {
                        out.push(atom);
                    }
                }
            }
        }
    }
    if long {
        drop_implied(&out)
    } else {
        out
    }
}

/// Every guard tightened.
pub fn tighten(its: &Its) -> Its {
    tighten_with(its, false)
}

/// Every guard tightened and without the atoms that one other atom implies, whatever its
/// length: for the ITS chained a second time, whose laps compose guards that the first
/// chaining left apart (T2's `elmhes` keeps its bound only so).
pub fn tighten_dropping_implied(its: &Its) -> Its {
    tighten_with(its, true)
}

fn tighten_with(its: &Its, drop_all: bool) -> Its {
    let mut out = its.clone();
    for t in &mut out.transitions {
        t.guard = tighten_guard(&t.guard, drop_all);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_round_the_constant_down() {
        // 2A − 1 ≥ 0 is A − 1 ≥ 0 over ℤ; 2A − 2 ≥ 0 is A − 1 ≥ 0; 3A + 1 ≥ 0 is A ≥ 0.
        let a = Poly::var(0);
        let c = |p: Poly| cut(&p).map(|q| q.eval(&[5]).unwrap() - 5);
        assert_eq!(c(a.scale(2).sub(&Poly::constant(1))), Some(-1));
        assert_eq!(c(a.scale(2).sub(&Poly::constant(2))), Some(-1));
        assert_eq!(c(a.scale(3).add(&Poly::constant(1))), Some(0));
        assert_eq!(c(a.add(&Poly::constant(1))), None);
    }

    #[test]
    fn implied_atoms_are_dropped_and_integer_points_kept() {
        // A chained lap's guard: A ≥ 1, A ≥ 2, A ≥ 1 again, 5 ≥ A, A = 3, A ≥ 3, 3 − A ≥ 0,
        // B ≥ 0, 4 ≥ 0, A − B ≥ 0: only A = 3, B ≥ 0 and A − B ≥ 0 are left.
        let (a, b) = (Poly::var(0), Poly::var(1));
        let k = Poly::constant;
        let ge = Atom::ge0;
        let guard = vec![
            ge(a.sub(&k(1))),
            ge(a.sub(&k(2))),
            ge(a.sub(&k(1))),
            ge(k(5).sub(&a)),
            Atom {
                poly: a.sub(&k(3)),
                rel: Rel::Eq,
            },
            ge(a.sub(&k(3))),
            ge(k(3).sub(&a)),
            ge(b.clone()),
            ge(k(4)),
            ge(a.sub(&b)),
        ];
        let kept = drop_implied(&guard);
        assert_eq!(kept.len(), 3, "{kept:?}");
        for x in -8..=8 {
            for y in -8..=8 {
                let holds = |g: &[Atom]| g.iter().all(|at| at.holds(&[x, y]) == Some(true));
                assert_eq!(holds(&guard), holds(&kept), "A = {x}, B = {y}");
            }
        }
        // An unsatisfiable guard stays unsatisfiable: A = 3 ∧ A ≥ 4 keeps both.
        let unsat = vec![
            Atom {
                poly: a.sub(&k(3)),
                rel: Rel::Eq,
            },
            ge(a.sub(&k(4))),
        ];
        assert_eq!(drop_implied(&unsat), unsat);
    }

    #[test]
    fn cancelling_pairs_are_cut_and_integer_points_kept() {
        // A ≥ B ∧ A + B ≥ 1 gains A ≥ 1; brute force: the same integer points.
        let (a, b) = (Poly::var(0), Poly::var(1));
        let guard = vec![
            Atom::ge0(a.sub(&b)),
            Atom::ge0(a.add(&b).sub(&Poly::constant(1))),
        ];
        let tight = tighten_guard(&guard, false);
        assert!(tight.contains(&Atom::ge0(a.sub(&Poly::constant(1)))));
        for x in -8..=8 {
            for y in -8..=8 {
                let holds = |g: &[Atom]| g.iter().all(|at| at.holds(&[x, y]) == Some(true));
                assert_eq!(holds(&guard), holds(&tight), "A = {x}, B = {y}");
            }
        }
    }
}
