//! Bounds: polynomials with non-negative coefficients over the absolute start values
//! `|x_0|, …, |x_{n−1}|` (so they are monotone, and `max` is over-approximated by `+`), or
//! infinity.

use crate::poly::Poly;

/// An upper bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A polynomial with non-negative coefficients in the absolute start values.
    Poly(Poly),
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
            (Bound::Poly(a), Bound::Poly(b)) => Bound::Poly(a.add(b)),
            _ => Bound::Infinite,
        }
    }

    /// `self · other`.
    pub fn mul(&self, other: &Bound) -> Bound {
        match (self, other) {
            (Bound::Poly(a), _) if a.is_zero() => Bound::constant(0),
            (_, Bound::Poly(b)) if b.is_zero() => Bound::constant(0),
            (Bound::Poly(a), Bound::Poly(b)) => Bound::Poly(a.mul(b)),
            _ => Bound::Infinite,
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
            Bound::Infinite => None,
        }
    }

    /// The asymptotic class: `O(1)`, `O(n)`, `O(n^k)`; `None` for infinity.
    pub fn asymptotic(&self) -> Option<String> {
        match self {
            Bound::Poly(p) => Some(match p.degree() {
                0 => "O(1)".to_string(),
                1 => "O(n)".to_string(),
                k => format!("O(n^{k})"),
            }),
            Bound::Infinite => None,
        }
    }

    /// Readable form with `|X|` for the start value of `X`.
    pub fn display(&self, vars: &[String]) -> String {
        match self {
            Bound::Poly(p) => p.display(&|v| format!("|{}|", vars[v])),
            Bound::Infinite => "∞".to_string(),
        }
    }
}
