//! Runtime bounds of the simplest triangular weakly non-linear (twn) loops from their
//! closed forms (after Lommen, Meyer & Giesl, IJCAR 2022): a location whose only cycles
//! are self-loops sharing one update that scales every variable of the guards,
//! `x_i' = c_i·x_i` with integers `c_i ≥ 1` (diagonal: the closed form is `x_i(n) = c_i^n·x_i`;
//! general triangular updates need polynomial-exponential closed forms and are not handled).
//!
//! An atom `g(x) ≥ 0` then reads `g(n) = Σ_c α_c(x)·c^n` after `n` steps, `α_c` the sum of its
//! monomials whose base `Π c_i^{e_i}` is `c` (the constant is base 1). Its *eventual sign*
//! is the sign of the first non-zero `α_c`, bases descending. If it is negative with base
//! `c`, then `g(n) ≤ −c^n + S·(c−1)^n` (`S = Σ |α_{c'}|` over the lower bases), which is
//! negative for every `n ≥ c·S + 1` (as `ln(c/(c−1)) ≥ 1/c` and `ln S < S`; for `c = 1` from
//! `n ≥ 1` on). So when Z3 proves that from every state satisfying a guard each transition's
//! guard has an atom of negative eventual sign, the loop runs at most
//! `1 + C·Σ_atoms (Σ |coefficient|·|monomial| + |constant|)` times per entry (`C` the
//! largest base): a polynomial in the absolute values at the entry.

use crate::its::{Atom, Its, Rel, Transition};
use crate::poly::{Monomial, Poly};
use crate::smt;
use std::collections::BTreeMap;
use symex_expr::Term;
use symex_solver::Solver;

/// A twn loop with its bound.
#[derive(Clone, Debug)]
pub struct TwnLoop {
    /// Its location.
    pub location: usize,
    /// Its transitions (self-loops).
    pub transitions: Vec<usize>,
    /// The scaling factor `c_i` of each guard variable.
    pub factors: BTreeMap<usize, i128>,
    /// Iterations per entry, in the absolute values at the entry (non-negative
    /// coefficients).
    pub bound: Poly,
}

/// The twn loop of the self-loops `ts` at `location`, or `None` when they are not of the
/// diagonal form or Z3 does not prove that they stop.
pub fn analyse(
    its: &Its,
    location: usize,
    ts: &[usize],
    solver: &mut dyn Solver,
) -> Option<TwnLoop> {
    let trans: Vec<&Transition> = ts.iter().map(|&i| &its.transitions[i]).collect();
    let first = trans.first()?;
    if trans
        .iter()
        .any(|t| t.source != location || t.target() != location || t.update() != first.update())
    {
        return None;
    }
    let guards: Vec<Vec<Atom>> = trans
        .iter()
        .map(|t| ge_atoms(&t.guard))
        .collect::<Option<_>>()?;
    let factors = scaling_factors(first, its.arity(), &guards)?;
    let var = |w: usize| smt::int_var("v", w);
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
    for g in &guards {
        // A state satisfying some guard from which all atoms of `g` stay eventually
        // non-negative would let the loop run on.
        let all_nonneg: Vec<Term> = g
            .iter()
            .map(|a| eventually_nonneg(&by_base(&a.poly, &factors), &var))
            .collect();
        let query = Term::and_all(&all_nonneg).and(&some_guard);
        if !matches!(solver.must_be_true(&[query], &Term::ff()), Ok(true)) {
            return None;
        }
    }
    let top = guards
        .iter()
        .flatten()
        .flat_map(|a| a.poly.terms().map(|(m, _)| base(m, &factors)))
        .max()
        .unwrap_or(1)
        .max(1);
    let mut sum = Poly::default();
    for a in guards.iter().flatten() {
        sum = sum.add(&a.poly.abs_coeffs());
    }
    Some(TwnLoop {
        location,
        transitions: ts.to_vec(),
        factors,
        bound: Poly::constant(1).add(&sum.scale(top)),
    })
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

/// `c_i` of `x_i' = c_i·x_i` for every variable of the guards; `None` when one is updated
/// otherwise, or a guard has a temporary.
fn scaling_factors(
    t: &Transition,
    n: usize,
    guards: &[Vec<Atom>],
) -> Option<BTreeMap<usize, i128>> {
    let mut factors = BTreeMap::new();
    for a in guards.iter().flatten() {
        for v in a.poly.vars() {
            if v >= n {
                return None;
            }
            let u = &t.update()[v];
            let c = u.linear_coeff(v);
            if c < 1 || *u != Poly::var(v).scale(c) {
                return None;
            }
            factors.insert(v, c);
        }
    }
    Some(factors)
}

/// The base `Π c_i^{e_i}` of a monomial (1 for the constant); saturating.
fn base(m: &Monomial, factors: &BTreeMap<usize, i128>) -> i128 {
    m.iter().fold(1i128, |acc, (v, e)| {
        let c = factors.get(v).copied().unwrap_or(1);
        acc.saturating_mul(c.saturating_pow(*e))
    })
}

/// `p` split by base, bases descending: `[(c, α_c)]`.
fn by_base(p: &Poly, factors: &BTreeMap<usize, i128>) -> Vec<(i128, Poly)> {
    let mut groups: BTreeMap<i128, Poly> = BTreeMap::new();
    for (m, c) in p.terms() {
        let mono = m.iter().fold(Poly::constant(c), |acc, (v, e)| {
            acc.mul(&Poly::var(*v).pow(*e))
        });
        let entry = groups.entry(base(m, factors)).or_default();
        *entry = entry.add(&mono);
    }
    groups.into_iter().rev().collect()
}

/// The first non-zero `α_c` (bases descending) is positive, or all are zero.
fn eventually_nonneg(groups: &[(i128, Poly)], var: &dyn Fn(usize) -> Term) -> Term {
    let zero = Term::int(0);
    // From the lowest base up: nonneg_k = α_k > 0 ∨ (α_k = 0 ∧ nonneg_{k+1}).
    groups.iter().rev().fold(Term::tt(), |rest, (_, alpha)| {
        let a = smt::poly_term(alpha, var);
        a.igt(&zero).or(&a.eq(&zero).and(&rest))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_group_monomials_by_growth() {
        // A' = 3A, B' = 2B: B − A − 1 has bases 3 (−A), 2 (B) and 1 (−1).
        let factors = BTreeMap::from([(0, 3), (1, 2)]);
        let p = Poly::var(1).sub(&Poly::var(0)).sub(&Poly::constant(1));
        let groups = by_base(&p, &factors);
        let bases: Vec<i128> = groups.iter().map(|(c, _)| *c).collect();
        assert_eq!(bases, vec![3, 2, 1]);
        assert_eq!(groups[0].1, Poly::var(0).scale(-1));
        // B² has base 4.
        assert_eq!(base(&vec![(1, 2)], &factors), 4);
    }
}
