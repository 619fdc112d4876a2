//! Exponential bounds: sums `Σ_E p_E · 2^E` of polynomials `p_E` times powers of two whose
//! exponents `E` are polynomials, all with non-negative coefficients in the absolute start
//! values (so the sum is monotone in them, like a polynomial bound). A size that a loop
//! multiplies by `a` on each of its at most `RB` steps grows by `|a|^RB ≤ 2^(⌈log₂|a|⌉·RB)`:
//! rounding every base up to a power of two keeps one normal form (KoAT2 keeps the base,
//! its asymptotic class is the same `EXP`).

use crate::poly::Poly;
use std::collections::BTreeMap;

/// `Σ_E p_E · 2^E`, keyed by the exponent `E` (the zero polynomial for the polynomial part).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpPoly {
    terms: BTreeMap<Poly, Poly>,
}

/// Exponents up to this constant are folded into the coefficient (larger ones stay in the
/// exponent, keeping coefficients small: products of folded terms overflowed `i128`).
const FOLD_LIMIT: i128 = 16;

impl ExpPoly {
    /// The polynomial `p` (exponent zero).
    pub fn poly(p: Poly) -> ExpPoly {
        ExpPoly {
            terms: BTreeMap::from([(Poly::default(), p)]),
        }
        .normal()
    }

    /// `2^e`.
    pub fn pow2(e: Poly) -> ExpPoly {
        let mut out = ExpPoly::default();
        // Without overflow: the coefficient 1 times at most 2^FOLD_LIMIT.
        out.add_term(e, Poly::constant(1))
            .expect("2^k fits for k ≤ FOLD_LIMIT");
        out
    }

    fn normal(mut self) -> ExpPoly {
        self.terms.retain(|_, p| !p.is_zero());
        self
    }

    /// The polynomial when no exponent is left.
    pub fn as_poly(&self) -> Option<Poly> {
        match self.terms.len() {
            0 => Some(Poly::default()),
            1 => self.terms.get(&Poly::default()).cloned(),
            _ => None,
        }
    }

    /// The terms `(E, p_E)`.
    pub fn terms(&self) -> impl Iterator<Item = (&Poly, &Poly)> {
        self.terms.iter()
    }

    /// Adds `p · 2^e`, folding a small constant part of `e` into `p`; `None` on overflow.
    fn add_term(&mut self, e: Poly, p: Poly) -> Option<()> {
        if p.is_zero() {
            return Some(());
        }
        let k = e.constant_term();
        let (e, p) = if (1..=FOLD_LIMIT).contains(&k) {
            (e.sub(&Poly::constant(k)), p.checked_scale(1 << k)?)
        } else {
            (e, p)
        };
        let sum = match self.terms.get(&e) {
            Some(q) => q.checked_add(&p)?,
            None => p,
        };
        if sum.is_zero() {
            self.terms.remove(&e);
        } else {
            self.terms.insert(e, sum);
        }
        Some(())
    }

    /// `self + other`; `None` on overflow.
    pub fn add(&self, other: &ExpPoly) -> Option<ExpPoly> {
        let mut out = self.clone();
        for (e, p) in &other.terms {
            out.add_term(e.clone(), p.clone())?;
        }
        Some(out)
    }

    /// `self · other`: exponents add; `None` on overflow.
    pub fn mul(&self, other: &ExpPoly) -> Option<ExpPoly> {
        let mut out = ExpPoly::default();
        for (e1, p1) in &self.terms {
            for (e2, p2) in &other.terms {
                out.add_term(e1.checked_add(e2)?, p1.checked_mul(p2)?)?;
            }
        }
        Some(out)
    }

    /// The value at `values` (absolute start values); `None` on overflow.
    pub fn eval(&self, values: &[i128]) -> Option<i128> {
        let mut sum: i128 = 0;
        for (e, p) in &self.terms {
            let k = e.eval(values)?;
            if !(0..=125).contains(&k) {
                return None;
            }
            sum = sum.checked_add(p.eval(values)?.checked_mul(1i128 << k)?)?;
        }
        Some(sum)
    }

    /// The variables occurring.
    pub fn vars(&self) -> std::collections::BTreeSet<usize> {
        self.terms
            .iter()
            .flat_map(|(e, p)| e.vars().into_iter().chain(p.vars()))
            .collect()
    }

    /// `(p)*2^(E) + …`, the polynomial part last.
    pub fn display(&self, name: &dyn Fn(usize) -> String) -> String {
        let mut parts: Vec<String> = Vec::new();
        for (e, p) in self.terms.iter().rev() {
            if e.is_zero() {
                parts.push(p.display(name));
            } else if p.as_constant() == Some(1) {
                parts.push(format!("2^({})", e.display(name)));
            } else {
                parts.push(format!("({})*2^({})", p.display(name), e.display(name)));
            }
        }
        if parts.is_empty() {
            "0".to_string()
        } else {
            parts.join(" + ")
        }
    }
}

/// `⌈log₂ a⌉` for `a ≥ 1`: `a^n ≤ 2^(⌈log₂ a⌉·n)`.
pub fn log2_ceil(a: i128) -> u32 {
    let a = a.max(1) as u128;
    128 - (a - 1).leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_folds_constants_and_evaluates() {
        let x = Poly::var(0);
        // (x + 1)·2^(x+3) = (8x + 8)·2^x.
        let three = ExpPoly::pow2(x.add(&Poly::constant(3)));
        let e = ExpPoly::poly(x.add(&Poly::constant(1)))
            .mul(&three)
            .unwrap();
        assert_eq!(e.terms().count(), 1);
        assert_eq!(e.eval(&[4]), Some(5 * 128));
        let sum = e.add(&ExpPoly::poly(Poly::constant(7))).unwrap();
        assert_eq!(sum.eval(&[0]), Some(8 + 7));
        assert_eq!(sum.as_poly(), None);
        assert_eq!(
            ExpPoly::pow2(Poly::constant(4)).as_poly(),
            Some(Poly::constant(16))
        );
        assert_eq!(ExpPoly::pow2(x.scale(200)).eval(&[1]), None);
        assert_eq!(
            sum.display(&|_| "|X|".to_string()),
            "(8*|X| + 8)*2^(|X|) + 7"
        );
    }

    #[test]
    fn overflow_gives_up_instead_of_wrapping() {
        use crate::bound::Bound;
        let big = Bound::constant(i128::MAX / 2);
        assert_eq!(big.mul(&Bound::constant(4)), Bound::Infinite);
        assert_eq!(big.add(&big).add(&big), Bound::Infinite);
        let exp = Bound::start_var(0).base_pow(2);
        assert_eq!(exp.mul(&big).mul(&big), Bound::Infinite);
    }

    #[test]
    fn doubly_exponential_bounds_dominate_their_parts() {
        use crate::bound::Bound;
        // b = 2^|X|, d = 2^(2^|X|); sums, products and powers checked by value for small X.
        let b = Bound::start_var(0).base_pow(2);
        let d = b.pow2();
        assert!(matches!(d, Bound::DoubleExp(_)));
        let p = Bound::start_var(0).add(&Bound::constant(3));
        let three_pow = b.base_pow(3);
        for x in 0..=4i128 {
            let at = |e: &Bound| e.eval(&[x]).unwrap();
            assert_eq!(at(&d), 1 << (1 << x));
            assert!(at(&d.add(&p)) >= at(&d) + at(&p));
            assert!(at(&d.add(&d)) >= 2 * at(&d));
            assert!(at(&d.mul(&p)) >= at(&d) * at(&p));
            // 3^(2^x) ≤ 2^(2·2^x).
            assert!(at(&three_pow) >= 3i128.pow(1 << x));
        }
        // Nothing beyond: a power of a doubly exponential bound is not bounded here.
        assert_eq!(d.pow2(), Bound::Infinite);
        assert_eq!(d.base_pow(2), Bound::Infinite);
        assert_eq!(d.display(&["X".to_string()]), "2^(2^(|X|))");
    }

    #[test]
    fn log2_ceil_bounds_the_base() {
        for a in 1..=1000i128 {
            let k = log2_ceil(a);
            assert!(a <= 1 << k && (k == 0 || 1 << (k - 1) < a), "{a}: {k}");
        }
    }
}
