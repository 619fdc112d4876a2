//! Runtime bounds of the simplest triangular weakly non-linear (twn) loops from their
//! closed forms (after Lommen, Meyer & Giesl, IJCAR 2022): a location whose only cycles
//! are self-loops sharing one update that scales every variable of the guards,
//! `x_i' = c_i·x_i` with integers `c_i ≥ 1` (closed form `x_i(n) = c_i^n·x_i`), or adds to
//! that a polynomial `d_i` of variables the loop keeps when `c_i ≥ 2`
//! (`(c_i−1)·x_i(n) = c_i^n·((c_i−1)·x_i + d_i) − d_i`). Updates whose closed forms are
//! polynomial in `n` (`x' = x + d`) or whose factors are negative are not handled.
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
use crate::poly::Poly;
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
    /// The factor `c_i` of each guard variable (`x_i' = c_i·x_i + d_i`).
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
    let closed = closed_forms(first, its.arity(), &guards)?;
    let expanded: Vec<Vec<Vec<(i128, Poly)>>> = guards
        .iter()
        .map(|g| g.iter().map(|a| by_base(&a.poly, &closed)).collect())
        .collect();
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
    for g in &expanded {
        // A state satisfying some guard from which all atoms of `g` stay eventually
        // non-negative would let the loop run on.
        let all_nonneg: Vec<Term> = g.iter().map(|a| eventually_nonneg(a, &var)).collect();
        let query = Term::and_all(&all_nonneg).and(&some_guard);
        if !matches!(solver.must_be_true(&[query], &Term::ff()), Ok(true)) {
            return None;
        }
    }
    let top = expanded
        .iter()
        .flatten()
        .flat_map(|a| a.iter().map(|(c, _)| *c))
        .max()
        .unwrap_or(1)
        .max(1);
    let mut sum = Poly::default();
    for (_, alpha) in expanded.iter().flatten().flatten() {
        sum = sum.add(&alpha.abs_coeffs());
    }
    let factors = closed.iter().map(|(v, cf)| (*v, cf.terms[0].0)).collect();
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

/// The closed form of a guard variable: `den·x(n) = Σ_j num_j·base_j^n`.
#[derive(Clone, Debug)]
struct Closed {
    den: i128,
    terms: Vec<(i128, Poly)>,
}

/// The closed forms of the guards' variables: `x' = c·x` gives `c^n·x`; `x' = c·x + d` with
/// `c ≥ 2` and `d` over variables the loop keeps gives `(c−1)·x(n) = c^n·((c−1)·x + d) − d`.
/// `None` for other updates (`c ≤ 0`, `x' = x + d`: polynomial in `n`) or temporaries.
fn closed_forms(t: &Transition, n: usize, guards: &[Vec<Atom>]) -> Option<BTreeMap<usize, Closed>> {
    let mut out = BTreeMap::new();
    for a in guards.iter().flatten() {
        for v in a.poly.vars() {
            if v >= n {
                return None;
            }
            let u = &t.update()[v];
            let c = u.linear_coeff(v);
            let d = u.sub(&Poly::var(v).scale(c));
            let kept = d
                .vars()
                .iter()
                .all(|&w| w < n && t.update()[w] == Poly::var(w));
            let closed = if d.is_zero() && c >= 1 {
                Closed {
                    den: 1,
                    terms: vec![(c, Poly::var(v))],
                }
            } else if c >= 2 && kept && !d.vars().contains(&v) {
                let start = Poly::var(v).scale(c - 1).add(&d);
                Closed {
                    den: c - 1,
                    terms: vec![(c, start), (1, d.scale(-1))],
                }
            } else {
                return None;
            };
            out.insert(v, closed);
        }
    }
    Some(out)
}

/// `L·p(x(n))` split by base, bases descending: `[(c, α_c)]`, with `L = Π den_v^{deg_v p}`
/// making every `α_c` integral (`L > 0`, so the signs are those of `p`).
fn by_base(p: &Poly, closed: &BTreeMap<usize, Closed>) -> Vec<(i128, Poly)> {
    let degree = |v: usize| -> u32 {
        p.terms()
            .flat_map(|(m, _)| m.iter().filter(|(w, _)| *w == v).map(|(_, e)| *e))
            .max()
            .unwrap_or(0)
    };
    let mut groups: BTreeMap<i128, Poly> = BTreeMap::new();
    for (m, coef) in p.terms() {
        let mut prod: BTreeMap<i128, Poly> = BTreeMap::from([(1, Poly::constant(coef))]);
        for (v, e) in m {
            let cf = &closed[v];
            let pad = cf.den.pow(degree(*v) - e);
            prod = scale_groups(&prod, pad);
            for _ in 0..*e {
                prod = mul_groups(&prod, &cf.terms);
            }
        }
        for (b, q) in prod {
            let entry = groups.entry(b).or_default();
            *entry = entry.add(&q);
        }
    }
    groups.retain(|_, q| !q.is_zero());
    groups.into_iter().rev().collect()
}

fn scale_groups(g: &BTreeMap<i128, Poly>, k: i128) -> BTreeMap<i128, Poly> {
    g.iter().map(|(b, q)| (*b, q.scale(k))).collect()
}

/// `(Σ_b q_b·b^n)·(Σ_j r_j·c_j^n)`, bases multiplying.
fn mul_groups(g: &BTreeMap<i128, Poly>, terms: &[(i128, Poly)]) -> BTreeMap<i128, Poly> {
    let mut out: BTreeMap<i128, Poly> = BTreeMap::new();
    for (b, q) in g {
        for (c, r) in terms {
            let entry = out.entry(b.saturating_mul(*c)).or_default();
            *entry = entry.add(&q.mul(r));
        }
    }
    out
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

    fn scaled(c: i128, v: usize) -> Closed {
        Closed {
            den: 1,
            terms: vec![(c, Poly::var(v))],
        }
    }

    #[test]
    fn bases_group_monomials_by_growth() {
        // A' = 3A, B' = 2B: B − A − 1 has bases 3 (−A), 2 (B) and 1 (−1); B² has base 4.
        let closed = BTreeMap::from([(0, scaled(3, 0)), (1, scaled(2, 1))]);
        let p = Poly::var(1).sub(&Poly::var(0)).sub(&Poly::constant(1));
        let groups = by_base(&p, &closed);
        let bases: Vec<i128> = groups.iter().map(|(c, _)| *c).collect();
        assert_eq!(bases, vec![3, 2, 1]);
        assert_eq!(groups[0].1, Poly::var(0).scale(-1));
        let sq = by_base(&Poly::var(1).pow(2), &closed);
        assert_eq!(sq, vec![(4, Poly::var(1).pow(2))]);
    }

    #[test]
    fn affine_closed_form_matches_iteration() {
        // A' = 5A + C² (C kept): 4·A(n) = 5^n·(4A + C²) − C². Brute force against the
        // iterated update, through the atom A ≥ 0 (L = 4).
        let t = Transition {
            source: 0,
            targets: vec![(
                0,
                vec![
                    Poly::var(0).scale(5).add(&Poly::var(1).pow(2)),
                    Poly::var(1),
                ],
            )],
            guard: vec![Atom::ge0(Poly::var(0))],
            cost: Poly::constant(1),
            temps: Vec::new(),
            com: false,
        };
        let closed = closed_forms(&t, 2, std::slice::from_ref(&t.guard)).unwrap();
        let groups = by_base(&Poly::var(0), &closed);
        for (a0, c) in [(3i128, 2i128), (-7, 5), (0, 0), (1, -3)] {
            let mut a = a0;
            for n in 0..6u32 {
                let sum: i128 = groups
                    .iter()
                    .map(|(b, q)| q.eval(&[a0, c]).unwrap() * b.pow(n))
                    .sum();
                assert_eq!(sum, 4 * a, "n = {n}, A = {a0}, C = {c}");
                a = 5 * a + c * c;
            }
        }
    }
}
