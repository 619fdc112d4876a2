//! A linear relaxation of the squares in updates, for Farkas' lemma ([`crate::farkas`]).
//!
//! Farkas' lemma needs linear constraints, so a non-linear update used to leave the new value
//! free. VMCAI'05's `poly1` (Bradley, Manna & Sipma, "Termination of polynomial programs")
//! lowers `A − B` by `C² + C` on one of its loops (`A' = A − C, B' = B + C², C' = C − 1`):
//! never negative over the integers, but with `B'` free no ranking function can use `A − B`.
//!
//! Here each even power `x^{2j}` of one variable in an update is a column `M` of its own
//! (a variable of the Farkas constraints that no template mentions), tied to `x` by the
//! secants of the parabola through neighbouring integer points,
//! `M ≥ (2k + 1)·x − k·(k + 1)`, that is `(x − k)·(x − k − 1) ≥ 0`: the product of two
//! consecutive integers is never negative, and `x^{2j} ≥ x²` for every integer `x`. The
//! updates are then linear over `(x̄, temporaries, M̄)`; a ranking function proved for every
//! value of `M` that satisfies the secants holds for `M = x^{2j}` in particular, so what is
//! proved for the relaxation holds for the transition (as for the dropped atoms).
//!
//! The secants are taken for `k` in [`SECANTS`] and at the constants of the guard's atoms on
//! `x` alone (`x ≥ c` gets the secants through `c − 1, c, c + 1`), where a phase of a loop
//! lives: `C ≤ −2` needs `C² + C ≥ 2`, the secant through `−2` and `−1`.

use crate::its::{Rel, Transition};
use crate::poly::{Monomial, Poly};

/// The `k` of the secants every column gets: the parabola's integer points `−3..=3`.
pub const SECANTS: std::ops::RangeInclusive<i128> = -3..=2;

/// The monomials of `t`'s updates that get a column: even powers `x^{2j}` (`j ≥ 1`) of one
/// variable, in order of first appearance.
pub fn columns(t: &Transition) -> Vec<Monomial> {
    let mut out: Vec<Monomial> = Vec::new();
    for u in t.targets.iter().flat_map(|(_, u)| u.iter()) {
        for (m, _) in u.terms() {
            if is_even_power(m) && !out.contains(m) {
                out.push(m.clone());
            }
        }
    }
    out
}

fn is_even_power(m: &Monomial) -> bool {
    matches!(m.as_slice(), [(_, e)] if *e >= 2 && e % 2 == 0)
}

/// Whether `p` is linear once the [`columns`] of its transition stand for their monomials.
pub fn is_linear_over_columns(p: &Poly) -> bool {
    p.terms()
        .all(|(m, _)| m.iter().map(|&(_, e)| e).sum::<u32>() <= 1 || is_even_power(m))
}

/// The facts `p ≥ 0` about the column of `m` (one of `t`'s [`columns`]), written with the
/// variable `column` for it: the secants for [`SECANTS`] and the guard's constants on `m`'s
/// variable.
pub fn facts(t: &Transition, m: &Monomial, column: usize) -> Vec<Poly> {
    let &[(x, _)] = m.as_slice() else {
        return Vec::new();
    };
    let mut ks: Vec<i128> = SECANTS.collect();
    for k in guard_constants(t, x) {
        for k in [k - 1, k] {
            if !ks.contains(&k) {
                ks.push(k);
            }
        }
    }
    ks.into_iter().map(|k| secant(x, column, k)).collect()
}

/// `M − (2k + 1)·x + k·(k + 1) ≥ 0`.
fn secant(x: usize, column: usize, k: i128) -> Poly {
    Poly::var(column)
        .sub(&Poly::var(x).scale(2 * k + 1))
        .add(&Poly::constant(k * (k + 1)))
}

/// The values `c` of the guard's atoms `a·x + b ≥ 0` (or `= 0`) on `x` alone with `a = ±1`:
/// the ends of the interval the guard keeps `x` in.
fn guard_constants(t: &Transition, x: usize) -> Vec<i128> {
    t.guard
        .iter()
        .filter(|a| a.rel != Rel::Ne && a.poly.is_linear() && a.poly.vars().len() == 1)
        .filter_map(|a| {
            let a1 = a.poly.linear_coeff(x);
            (a1.abs() == 1).then(|| -a.poly.constant_term() * a1)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transition(rule: &str) -> Transition {
        let src = format!(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l))\n(VAR A B C)\n(RULES\n{rule}\n)\n"
        );
        crate::parse_koat(&src).unwrap().transitions.remove(0)
    }

    /// Every fact holds at `M = x²` for every `x` of a range, and at `x = k, k + 1` it is
    /// tight (a secant through two integer points of the parabola).
    #[test]
    fn the_secants_hold_for_squares_and_touch_them() {
        let t = transition("  l(A,B,C) -> l(A - C,B + C*C,C - 1) :|: A >= B && C <= -2");
        let cols = columns(&t);
        assert_eq!(cols, vec![vec![(2, 2)]]);
        let facts = facts(&t, &cols[0], 3);
        // −3..=2, and −3, −2 from `C ≤ −2` (already there).
        assert_eq!(facts.len(), 6);
        for f in &facts {
            let mut touches = 0;
            for x in -50..=50i128 {
                let v = f.eval(&[0, 0, x, x * x]).unwrap();
                assert!(v >= 0, "{f:?} at {x}");
                touches += usize::from(v == 0);
            }
            assert_eq!(touches, 2, "{f:?}");
        }
    }

    #[test]
    fn only_even_powers_of_one_variable_are_columns() {
        let t = transition("  l(A,B,C) -> l(A*B,B*B*B,C^4 + C*C)");
        assert_eq!(columns(&t), vec![vec![(2, 2)], vec![(2, 4)]]);
        assert!(is_linear_over_columns(&t.update()[2]));
        assert!(!is_linear_over_columns(&t.update()[0]));
        assert!(!is_linear_over_columns(&t.update()[1]));
    }
}
