//! Integer tightening of guards (Chvátal–Gomory cuts): over ℤ, `Σ c_i·x_i + k ≥ 0` with
//! `g = gcd(c_i) > 1` is `Σ (c_i/g)·x_i + ⌊k/g⌋ ≥ 0`. Each linear atom is tightened, and
//! so is each sum of two atoms that cancels a variable when the cut says more than the
//! sum: `A ≥ B ∧ A + B ≥ 1` gives `2A ≥ 1`, i.e. `A ≥ 1`. The guards stay equivalent over
//! the integers (every run is kept); the provers, which reason over the rationals
//! (Farkas), see the integer facts: `B' = B − 2A + 1` then decreases `A + B` by 1.

use crate::its::{Atom, Its, Rel};
use crate::poly::Poly;

/// Pairs of atoms are combined only in guards with at most this many linear atoms.
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
    let k = p.constant_term();
    let linear = p.sub(&Poly::constant(k));
    let mut out = Poly::constant(k.div_euclid(g));
    for (m, c) in linear.terms() {
        let (v, _) = m[0];
        out = out.add(&Poly::var(v).scale(c / g));
    }
    Some(out)
}

/// The guard with every linear `≥` atom tightened and the cuts of cancelling pairs added.
fn tighten_guard(guard: &[Atom]) -> Vec<Atom> {
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
    out
}

/// Every guard tightened.
pub fn tighten(its: &Its) -> Its {
    let mut out = its.clone();
    for t in &mut out.transitions {
        t.guard = tighten_guard(&t.guard);
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
    fn cancelling_pairs_are_cut_and_integer_points_kept() {
        // A ≥ B ∧ A + B ≥ 1 gains A ≥ 1; brute force: the same integer points.
        let (a, b) = (Poly::var(0), Poly::var(1));
        let guard = vec![
            Atom::ge0(a.sub(&b)),
            Atom::ge0(a.add(&b).sub(&Poly::constant(1))),
        ];
        let tight = tighten_guard(&guard);
        assert!(tight.contains(&Atom::ge0(a.sub(&Poly::constant(1)))));
        for x in -8..=8 {
            for y in -8..=8 {
                let holds = |g: &[Atom]| g.iter().all(|at| at.holds(&[x, y]) == Some(true));
                assert_eq!(holds(&guard), holds(&tight), "A = {x}, B = {y}");
            }
        }
    }
}
