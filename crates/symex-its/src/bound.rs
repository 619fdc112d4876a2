//! Bounds: polynomials with non-negative coefficients over the absolute start values
//! `|x_0|, …, |x_{n−1}|` (so they are monotone, and `max` is over-approximated by `+`),
//! sums of such polynomials times powers of two with polynomial exponents
//! ([`ExpPoly`], from sizes that loops multiply), two to the power of such a sum (doubly
//! exponential: sizes that loops square, or multiply an exponential number of times), or
//! infinity.

use crate::exp_bound::{log2_ceil, ExpPoly};
use crate::poly::Poly;

/// An upper bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A polynomial with non-negative coefficients in the absolute start values.
    Poly(Poly),
    /// `Σ_E p_E · 2^E` with some non-constant exponent `E` (normalised: never polynomial).
    Exp(ExpPoly),
    /// `2^E` with an exponential `E` (normalised: `E` is never polynomial). Every finite bound
    /// `b` is at most `2^b` (`x ≤ 2^x`), so sums and products stay in this form:
    /// `2^E1 + 2^E2 ≤ 2^(E1 + E2 + 1)` and `2^E1 · 2^E2 = 2^(E1 + E2)`, both for `E1, E2 ≥ 0`.
    DoubleExp(ExpPoly),
    /// No finite bound is known.
    Infinite,
}

impl Bound {
    /// The constant `c ≥ 0`.
    pub fn constant(c: i128) -> Bound {
        Bound::Poly(Poly::constant(c.max(0)))
    }

    /// `|x_v|` at the start.
    pub fn start_var(v: usize) -> Bound {
        Bound::Poly(Poly::var(v))
    }

    /// `self + other` (also the bound of `max(self, other)`).
    pub fn add(&self, other: &Bound) -> Bound {
        match (self, other) {
            // An overflowing coefficient gives up (infinity), never a wrapped bound.
            (Bound::Poly(a), Bound::Poly(b)) => {
                a.checked_add(b).map_or(Bound::Infinite, Bound::Poly)
            }
            (Bound::DoubleExp(_), _) | (_, Bound::DoubleExp(_)) => {
                match (self.exponent(), other.exponent()) {
                    (Some(a), Some(b)) => Bound::from_double_exp(
                        a.add(&b)
                            .and_then(|e| e.add(&ExpPoly::poly(Poly::constant(1)))),
                    ),
                    _ => Bound::Infinite,
                }
            }
            _ => match (self.as_exp(), other.as_exp()) {
                (Some(a), Some(b)) => Bound::from_exp(a.add(&b)),
                _ => Bound::Infinite,
            },
        }
    }

    /// `self · other`.
    pub fn mul(&self, other: &Bound) -> Bound {
        match (self, other) {
            (Bound::Poly(a), _) if a.is_zero() => Bound::constant(0),
            (_, Bound::Poly(b)) if b.is_zero() => Bound::constant(0),
            (Bound::Poly(a), Bound::Poly(b)) => {
                a.checked_mul(b).map_or(Bound::Infinite, Bound::Poly)
            }
            (Bound::DoubleExp(_), _) | (_, Bound::DoubleExp(_)) => {
                match (self.exponent(), other.exponent()) {
                    (Some(a), Some(b)) => Bound::from_double_exp(a.add(&b)),
                    _ => Bound::Infinite,
                }
            }
            _ => match (self.as_exp(), other.as_exp()) {
                (Some(a), Some(b)) => Bound::from_exp(a.mul(&b)),
                _ => Bound::Infinite,
            },
        }
    }

    /// A bound of `|a|^n` when `n` is bounded by `self`: `2^(⌈log₂|a|⌉·self)`, doubly
    /// exponential for an exponential `self`; infinite for a doubly exponential one.
    pub fn base_pow(&self, a: i128) -> Bound {
        let k = log2_ceil(a.checked_abs().unwrap_or(i128::MAX));
        match self {
            _ if k == 0 => Bound::constant(1),
            Bound::Poly(n) => Bound::from_exp(n.checked_scale(k as i128).map(ExpPoly::pow2)),
            Bound::Exp(e) => Bound::pow2(&Bound::Exp(e.clone()).mul(&Bound::constant(k as i128))),
            _ => Bound::Infinite,
        }
    }

    /// `2^self`: exponential for a polynomial, doubly exponential for an exponential `self`,
    /// infinite beyond.
    pub fn pow2(&self) -> Bound {
        match self {
            Bound::Poly(p) => Bound::from_exp(Some(ExpPoly::pow2(p.clone()))),
            Bound::Exp(e) => Bound::from_double_exp(Some(e.clone())),
            _ => Bound::Infinite,
        }
    }

    fn as_exp(&self) -> Option<ExpPoly> {
        match self {
            Bound::Poly(p) => Some(ExpPoly::poly(p.clone())),
            Bound::Exp(e) => Some(e.clone()),
            Bound::DoubleExp(_) | Bound::Infinite => None,
        }
    }

    /// An `E` with `self ≤ 2^E`: `E` of a doubly exponential bound, else the bound itself
    /// (`x ≤ 2^x`); `None` for infinity.
    fn exponent(&self) -> Option<ExpPoly> {
        match self {
            Bound::DoubleExp(e) => Some(e.clone()),
            _ => self.as_exp(),
        }
    }

    /// `2^e` in normal form; infinity on overflow (`None`).
    fn from_double_exp(e: Option<ExpPoly>) -> Bound {
        let Some(e) = e else {
            return Bound::Infinite;
        };
        match e.as_poly() {
            Some(p) => Bound::from_exp(Some(ExpPoly::pow2(p))),
            None => Bound::DoubleExp(e),
        }
    }

    /// The normal form; infinity when the arithmetic overflowed (`None`).
    fn from_exp(e: Option<ExpPoly>) -> Bound {
        let Some(e) = e else {
            return Bound::Infinite;
        };
        match e.as_poly() {
            Some(p) => Bound::Poly(p),
            None => Bound::Exp(e),
        }
    }

    /// Whether the bound is a polynomial.
    pub fn is_polynomial(&self) -> bool {
        matches!(self, Bound::Poly(_))
    }

    /// The start variables the bound mentions.
    pub fn vars(&self) -> std::collections::BTreeSet<usize> {
        match self {
            Bound::Poly(p) => p.vars(),
            Bound::Exp(e) | Bound::DoubleExp(e) => e.vars(),
            Bound::Infinite => Default::default(),
        }
    }

    /// A bound of `|p(y)|` when each `|y_v|` is bounded by `size(v)`: `p` with absolute
    /// coefficients, composed with the sizes.
    pub fn of_poly(p: &Poly, size: &mut dyn FnMut(usize) -> Bound) -> Bound {
        let mut sum = Bound::constant(0);
        for (m, c) in p.terms() {
            let mut prod = Bound::constant(c.abs());
            for (v, e) in m {
                let s = size(*v);
                for _ in 0..*e {
                    prod = prod.mul(&s);
                }
            }
            sum = sum.add(&prod);
        }
        sum
    }

    /// The value at the absolute start values (`None` for infinity or on overflow).
    pub fn eval(&self, start: &[i128]) -> Option<i128> {
        match self {
            Bound::Poly(p) => {
                let abs: Vec<i128> = start.iter().map(|x| x.abs()).collect();
                p.eval(&abs)
            }
            Bound::Exp(e) => {
                let abs: Vec<i128> = start.iter().map(|x| x.abs()).collect();
                e.eval(&abs)
            }
            Bound::DoubleExp(e) => {
                let abs: Vec<i128> = start.iter().map(|x| x.abs()).collect();
                let k = e.eval(&abs)?;
                (0..=125).contains(&k).then(|| 1i128 << k)
            }
            Bound::Infinite => None,
        }
    }

    /// The asymptotic class: `O(1)`, `O(n)`, `O(n^k)`, `O(EXP)` (KoAT2's name for every
    /// exponential bound, here also for doubly exponential ones); `None` for infinity.
    pub fn asymptotic(&self) -> Option<String> {
        match self {
            Bound::Poly(p) => Some(match p.degree() {
                0 => "O(1)".to_string(),
                1 => "O(n)".to_string(),
                k => format!("O(n^{k})"),
            }),
            Bound::Exp(_) | Bound::DoubleExp(_) => Some("O(EXP)".to_string()),
            Bound::Infinite => None,
        }
    }

    /// Readable form with `|X|` for the start value of `X`.
    pub fn display(&self, vars: &[String]) -> String {
        match self {
            Bound::Poly(p) => p.display(&|v| format!("|{}|", vars[v])),
            Bound::Exp(e) => e.display(&|v| format!("|{}|", vars[v])),
            Bound::DoubleExp(e) => format!("2^({})", e.display(&|v| format!("|{}|", vars[v]))),
            Bound::Infinite => "∞".to_string(),
        }
    }
}
