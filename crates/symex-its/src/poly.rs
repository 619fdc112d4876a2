//! Polynomials with integer coefficients over numbered variables: the arithmetic of
//! guards, updates, costs and bounds. Evaluation is exact (`i128`, `None` on overflow).

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// The terms this thread's polynomial additions and multiplications have visited so far: the
/// work of the bound arithmetic, counted the same way on an idle and on a loaded machine
/// (tests bound it where a time limit would depend on the load).
pub fn work() -> u64 {
    WORK.with(Cell::get)
}

fn charge(terms: usize) {
    WORK.with(|w| w.set(w.get().saturating_add(terms as u64)));
}

/// A product of variables with exponents, sorted by variable (the empty monomial is 1).
pub type Monomial = Vec<(usize, u32)>;

/// A polynomial: monomial → non-zero coefficient.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Poly {
    terms: BTreeMap<Monomial, i128>,
}

impl Poly {
    /// The constant `c`.
    pub fn constant(c: i128) -> Poly {
        let mut p = Poly::default();
        if c != 0 {
            p.terms.insert(Vec::new(), c);
        }
        p
    }

    /// The variable `v`.
    pub fn var(v: usize) -> Poly {
        let mut p = Poly::default();
        p.terms.insert(vec![(v, 1)], 1);
        p
    }

    /// The monomials and their coefficients.
    pub fn terms(&self) -> impl Iterator<Item = (&Monomial, i128)> {
        self.terms.iter().map(|(m, c)| (m, *c))
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The constant term.
    pub fn constant_term(&self) -> i128 {
        self.terms.get(&Vec::new()).copied().unwrap_or(0)
    }

    /// The value when the polynomial has no variables.
    pub fn as_constant(&self) -> Option<i128> {
        (self.degree() == 0).then(|| self.constant_term())
    }

    /// The coefficient of the linear monomial `v`.
    pub fn linear_coeff(&self, v: usize) -> i128 {
        self.terms.get(&vec![(v, 1)]).copied().unwrap_or(0)
    }

    /// The total degree (0 for constants, also for zero).
    pub fn degree(&self) -> u32 {
        self.terms
            .keys()
            .map(|m| m.iter().map(|(_, e)| e).sum())
            .max()
            .unwrap_or(0)
    }

    /// Whether every monomial has degree at most one.
    pub fn is_linear(&self) -> bool {
        self.degree() <= 1
    }

    /// The variables occurring.
    pub fn vars(&self) -> BTreeSet<usize> {
        self.terms.keys().flatten().map(|(v, _)| *v).collect()
    }

    fn add_term(&mut self, m: Monomial, c: i128) {
        let entry = self.terms.entry(m).or_insert(0);
        *entry += c;
        if *entry == 0 {
            self.terms.retain(|_, c| *c != 0);
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &Poly) -> Poly {
        charge(self.terms.len() + other.terms.len());
        let mut p = self.clone();
        for (m, c) in &other.terms {
            p.add_term(m.clone(), *c);
        }
        p
    }

    /// `self + other`; `None` when a coefficient overflows.
    pub fn checked_add(&self, other: &Poly) -> Option<Poly> {
        charge(self.terms.len() + other.terms.len());
        let mut p = self.clone();
        for (m, c) in &other.terms {
            let entry = p.terms.entry(m.clone()).or_insert(0);
            *entry = entry.checked_add(*c)?;
        }
        p.terms.retain(|_, c| *c != 0);
        Some(p)
    }

    /// `self · other`; `None` when a coefficient overflows. The products are summed in
    /// place: the size bounds of nested loops reach thousands of terms, where a copy of the
    /// sum per product made one multiplication cubic in the terms.
    pub fn checked_mul(&self, other: &Poly) -> Option<Poly> {
        charge(self.terms.len() * other.terms.len());
        let mut terms: BTreeMap<Monomial, i128> = BTreeMap::new();
        for (m1, c1) in &self.terms {
            for (m2, c2) in &other.terms {
                let c = c1.checked_mul(*c2)?;
                let entry = terms.entry(mul_monomials(m1, m2)).or_insert(0);
                *entry = entry.checked_add(c)?;
            }
        }
        terms.retain(|_, c| *c != 0);
        Some(Poly { terms })
    }

    /// `c · self`; `None` when a coefficient overflows.
    pub fn checked_scale(&self, c: i128) -> Option<Poly> {
        if c == 0 {
            return Some(Poly::default());
        }
        let terms = self
            .terms
            .iter()
            .map(|(m, d)| Some((m.clone(), c.checked_mul(*d)?)))
            .collect::<Option<_>>()?;
        Some(Poly { terms })
    }

    /// `self - other`.
    pub fn sub(&self, other: &Poly) -> Poly {
        self.add(&other.scale(-1))
    }

    /// `c · self`.
    pub fn scale(&self, c: i128) -> Poly {
        if c == 0 {
            return Poly::default();
        }
        Poly {
            terms: self.terms.iter().map(|(m, d)| (m.clone(), c * d)).collect(),
        }
    }

    /// `self · other`.
    pub fn mul(&self, other: &Poly) -> Poly {
        charge(self.terms.len() * other.terms.len());
        let mut p = Poly::default();
        for (m1, c1) in &self.terms {
            for (m2, c2) in &other.terms {
                p.add_term(mul_monomials(m1, m2), c1 * c2);
            }
        }
        p
    }

    /// `self ^ e`.
    pub fn pow(&self, e: u32) -> Poly {
        let mut p = Poly::constant(1);
        for _ in 0..e {
            p = p.mul(self);
        }
        p
    }

    /// The value under `values[v]` for each variable `v`; `None` on overflow.
    pub fn eval(&self, values: &[i128]) -> Option<i128> {
        let mut sum: i128 = 0;
        for (m, c) in &self.terms {
            let mut prod = *c;
            for (v, e) in m {
                for _ in 0..*e {
                    prod = prod.checked_mul(*values.get(*v)?)?;
                }
            }
            sum = sum.checked_add(prod)?;
        }
        Some(sum)
    }

    /// Replaces each variable `v` by `f(v)`.
    pub fn substitute(&self, f: &dyn Fn(usize) -> Poly) -> Poly {
        let mut p = Poly::default();
        for (m, c) in &self.terms {
            let mut prod = Poly::constant(*c);
            for (v, e) in m {
                prod = prod.mul(&f(*v).pow(*e));
            }
            p = p.add(&prod);
        }
        p
    }

    /// The same monomials with the absolute values of the coefficients: `|p(x)| ≤
    /// abs(p)(|x|)` for all `x`.
    pub fn abs_coeffs(&self) -> Poly {
        Poly {
            terms: self
                .terms
                .iter()
                .map(|(m, c)| (m.clone(), c.abs()))
                .collect(),
        }
    }

    /// Whether every coefficient is non-negative.
    pub fn is_nonneg_coeffs(&self) -> bool {
        self.terms.values().all(|c| *c >= 0)
    }

    /// Prints with `name(v)` for the variables, in KoAT syntax (`2*X^2 + Y - 1`).
    pub fn display(&self, name: &dyn Fn(usize) -> String) -> String {
        if self.terms.is_empty() {
            return "0".to_string();
        }
        let mut out = String::new();
        // Higher-degree monomials first, the constant last, as people write them.
        let mut terms: Vec<_> = self.terms.iter().collect();
        terms.sort_by_key(|(m, _)| (m.is_empty(), std::cmp::Reverse(m.len())));
        for (i, (m, c)) in terms.into_iter().enumerate() {
            let (sign, abs) = if *c < 0 { ("-", -c) } else { ("+", *c) };
            if i == 0 {
                if sign == "-" {
                    out.push('-');
                }
            } else {
                out.push_str(&format!(" {sign} "));
            }
            let factors: Vec<String> = m
                .iter()
                .map(|(v, e)| {
                    if *e == 1 {
                        name(*v)
                    } else {
                        format!("{}^{e}", name(*v))
                    }
                })
                .collect();
            if factors.is_empty() {
                out.push_str(&abs.to_string());
            } else if abs == 1 {
                out.push_str(&factors.join("*"));
            } else {
                out.push_str(&format!("{abs}*{}", factors.join("*")));
            }
        }
        out
    }
}

/// The product of two monomials: a merge of their sorted factors.
fn mul_monomials(a: &Monomial, b: &Monomial) -> Monomial {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push((a[i].0, a[i].1 + b[j].1));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_and_evaluation() {
        let x = Poly::var(0);
        let y = Poly::var(1);
        let p = x.mul(&x).scale(2).add(&y).sub(&Poly::constant(1));
        assert_eq!(p.eval(&[3, 4]), Some(21));
        assert_eq!(p.degree(), 2);
        assert_eq!(p.display(&|v| ["X", "Y"][v].to_string()), "2*X^2 + Y - 1");
        assert_eq!(x.sub(&x), Poly::default());
        let q = p.substitute(&|v| if v == 0 { y.clone() } else { Poly::constant(1) });
        assert_eq!(q.eval(&[0, 5]), Some(50));
    }

    #[test]
    fn checked_products_sum_their_terms() {
        let x = Poly::var(0);
        let y = Poly::var(2);
        // (x + y − 2)(x − y + 3) and (x + y)(x − y) = x² − y², whose cross terms cancel.
        let a = x.add(&y).sub(&Poly::constant(2));
        let b = x.sub(&y).add(&Poly::constant(3));
        let p = a.checked_mul(&b).unwrap();
        assert_eq!(p.eval(&[4, 0, 6]), Some(8)); // (4 + 6 − 2)(4 − 6 + 3)
        assert_eq!(p.eval(&[-3, 0, 1]), Some(4)); // (−3 + 1 − 2)(−3 − 1 + 3)
        let q = x.add(&y).checked_mul(&x.sub(&y)).unwrap();
        assert_eq!(q.terms().count(), 2);
        assert_eq!(q.eval(&[5, 0, 3]), Some(16));
        assert_eq!(x.checked_mul(&x.mul(&y)).unwrap().degree(), 3);
        assert_eq!(
            Poly::constant(i128::MAX).checked_mul(&Poly::constant(2)),
            None
        );
    }
}
