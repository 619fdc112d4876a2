//! Closed forms of triangular weakly non-linear (twn) updates (Frohn & Giesl; Lommen, Meyer
//! & Giesl 2022): when each variable's update is `x' = c·x + d` with an integer `c` and `d` a
//! polynomial in variables updated before it, the value after `n` steps is a
//! *poly-exponential* expression `(1/L)·Σ_{(b,k)} α_{b,k}(x)·n^k·b^n` (`α` integer
//! polynomials in the start values). Solved variable by variable: with `d(n)` the closed
//! form of `d`, `x(n) = c^n·(x − P(0)) + P(n)` for the particular solution
//! `P(n) = Σ q·p(n)·b^n` of each term `q·n^k·b^n` of `d(n)`, where the polynomial `p`
//! solves `b·p(n+1) − c·p(n) = n^k` (degree `k`, or `k + 1` without constant when `b = c`).
//! Base `0` stands for `[n = 0]` (`0^0 = 1`). All arithmetic is exact (`None` on overflow).

use crate::poly::Poly;
use std::collections::{BTreeMap, BTreeSet};

/// A rational number `n/d` (`d > 0`, reduced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rat {
    n: i128,
    d: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Rat {
    fn new(n: i128, d: i128) -> Option<Rat> {
        if d == 0 {
            return None;
        }
        let g = gcd(n, d).max(1);
        let s = if d < 0 { -1 } else { 1 };
        Some(Rat {
            n: s * n / g,
            d: s * d / g,
        })
    }

    fn int(n: i128) -> Rat {
        Rat { n, d: 1 }
    }

    fn add(self, o: Rat) -> Option<Rat> {
        Rat::new(
            self.n
                .checked_mul(o.d)?
                .checked_add(o.n.checked_mul(self.d)?)?,
            self.d.checked_mul(o.d)?,
        )
    }

    fn mul(self, o: Rat) -> Option<Rat> {
        Rat::new(self.n.checked_mul(o.n)?, self.d.checked_mul(o.d)?)
    }

    fn div(self, o: Rat) -> Option<Rat> {
        Rat::new(self.n.checked_mul(o.d)?, self.d.checked_mul(o.n)?)
    }
}

/// `(1/den)·Σ_{(b,k)} terms[(b,k)]·n^k·b^n`, `den > 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolyExp {
    /// The common denominator.
    pub den: i128,
    /// Per (base, power of `n`): its coefficient, a polynomial in the start values.
    pub terms: BTreeMap<(i128, u32), Poly>,
}

impl PolyExp {
    /// The polynomial `p`, constant in `n`.
    pub fn poly(p: Poly) -> PolyExp {
        PolyExp {
            den: 1,
            terms: BTreeMap::from([((1, 0), p)]),
        }
        .normalized()
    }

    /// `b^n`.
    fn base(b: i128) -> PolyExp {
        PolyExp {
            den: 1,
            terms: BTreeMap::from([((b, 0), Poly::constant(1))]),
        }
    }

    /// Drops zero terms and `n^k·0^n` with `k > 0` (zero for every `n`).
    fn normalized(mut self) -> PolyExp {
        self.terms
            .retain(|(b, k), q| !q.is_zero() && (*b != 0 || *k == 0));
        self
    }

    fn checked_scale(&self, k: i128) -> Option<BTreeMap<(i128, u32), Poly>> {
        self.terms
            .iter()
            .map(|(bk, q)| Some((*bk, q.checked_scale(k)?)))
            .collect()
    }

    /// `self + other`.
    pub fn checked_add(&self, other: &PolyExp) -> Option<PolyExp> {
        let g = gcd(self.den, other.den);
        let den = (self.den / g).checked_mul(other.den)?;
        let mut terms = self.checked_scale(den / self.den)?;
        for (bk, q) in other.checked_scale(den / other.den)? {
            let entry = terms.entry(bk).or_default();
            *entry = entry.checked_add(&q)?;
        }
        Some(PolyExp { den, terms }.normalized())
    }

    /// `self · other` (bases multiply, powers of `n` add).
    pub fn checked_mul(&self, other: &PolyExp) -> Option<PolyExp> {
        let mut terms: BTreeMap<(i128, u32), Poly> = BTreeMap::new();
        for ((b1, k1), q1) in &self.terms {
            for ((b2, k2), q2) in &other.terms {
                let entry = terms.entry((b1.checked_mul(*b2)?, k1 + k2)).or_default();
                *entry = entry.checked_add(&q1.checked_mul(q2)?)?;
            }
        }
        let den = self.den.checked_mul(other.den)?;
        Some(PolyExp { den, terms }.normalized())
    }

    fn scale_rat(&self, r: Rat) -> Option<PolyExp> {
        Some(
            PolyExp {
                den: self.den.checked_mul(r.d)?,
                terms: self.checked_scale(r.n)?,
            }
            .normalized(),
        )
    }

    /// `q·n^k·b^n / den` as one term.
    fn term(b: i128, k: u32, q: Poly, den: i128) -> PolyExp {
        PolyExp {
            den,
            terms: BTreeMap::from([((b, k), q)]),
        }
        .normalized()
    }

    /// The value at `n` (`0^0 = 1`) times `den`, for start values `x`.
    pub fn eval_scaled(&self, x: &[i128], n: u32) -> Option<i128> {
        let mut sum: i128 = 0;
        for ((b, k), q) in &self.terms {
            let v = q
                .eval(x)?
                .checked_mul((n as i128).checked_pow(*k)?)?
                .checked_mul(b.checked_pow(n)?)?;
            sum = sum.checked_add(v)?;
        }
        Some(sum)
    }
}

/// `C(i, j)`.
fn binomial(i: u32, j: u32) -> Option<i128> {
    let mut r: i128 = 1;
    for t in 0..j as i128 {
        r = r.checked_mul(i as i128 - t)? / (t + 1);
    }
    Some(r)
}

/// The coefficients `a_0, …` of the polynomial `p` with `b·p(n+1) − c·p(n) = n^k`;
/// `None` for `b = c = 0`.
fn particular(b: i128, c: i128, k: u32) -> Option<Vec<Rat>> {
    // The coefficient of n^j on the left: (b − c)·a_j + b·Σ_{i>j} C(i,j)·a_i.
    let rb = Rat::int(b);
    if b != c {
        let mut a = vec![Rat::int(0); k as usize + 1];
        for j in (0..=k).rev() {
            let mut rhs = Rat::int(i128::from(j == k));
            for i in j + 1..=k {
                let t = rb.mul(Rat::int(binomial(i, j)?))?.mul(a[i as usize])?;
                rhs = rhs.add(Rat::int(-1).mul(t)?)?;
            }
            a[j as usize] = rhs.div(Rat::int(b - c))?;
        }
        return Some(a);
    }
    if b == 0 {
        return None;
    }
    // b = c: the equation of n^j fixes a_{j+1} (a_0 = 0).
    let mut a = vec![Rat::int(0); k as usize + 2];
    for j in (0..=k).rev() {
        let mut rhs = Rat::int(i128::from(j == k));
        for i in j + 2..=k + 1 {
            let t = rb.mul(Rat::int(binomial(i, j)?))?.mul(a[i as usize])?;
            rhs = rhs.add(Rat::int(-1).mul(t)?)?;
        }
        a[j as usize + 1] = rhs.div(rb.mul(Rat::int(j as i128 + 1))?)?;
    }
    Some(a)
}

/// `p(x(n))` for the closed forms `closed` of `p`'s variables.
pub fn substitute(p: &Poly, closed: &BTreeMap<usize, PolyExp>) -> Option<PolyExp> {
    let mut sum = PolyExp::poly(Poly::default());
    for (m, coef) in p.terms() {
        let mut prod = PolyExp::poly(Poly::constant(coef));
        for (v, e) in m {
            for _ in 0..*e {
                prod = prod.checked_mul(closed.get(v)?)?;
            }
        }
        sum = sum.checked_add(&prod)?;
    }
    Some(sum)
}

/// The closed form of `x' = c·x + d` given `d(n)`: `c^n·(x − P(0)) + P(n)`.
fn solve(x: usize, c: i128, d: &PolyExp) -> Option<PolyExp> {
    let mut part = PolyExp::poly(Poly::default());
    let mut at_zero = PolyExp::poly(Poly::default());
    for ((b, k), q) in &d.terms {
        let a = particular(*b, c, *k)?;
        for (j, aj) in a.iter().enumerate() {
            let t = PolyExp::term(*b, j as u32, q.clone(), d.den).scale_rat(*aj)?;
            part = part.checked_add(&t)?;
        }
        let t0 = PolyExp::term(1, 0, q.clone(), d.den).scale_rat(a[0])?;
        at_zero = at_zero.checked_add(&t0)?;
    }
    let start = PolyExp::poly(Poly::var(x)).checked_add(&at_zero.scale_rat(Rat::int(-1))?)?;
    PolyExp::base(c).checked_mul(&start)?.checked_add(&part)
}

/// The variables `vars` depend on through `update`, `vars` included; `None` when a
/// temporary (index ≥ `arity`) is among them.
pub fn closure(update: &[Poly], arity: usize, vars: &BTreeSet<usize>) -> Option<BTreeSet<usize>> {
    let mut out = BTreeSet::new();
    let mut todo: Vec<usize> = vars.iter().copied().collect();
    while let Some(v) = todo.pop() {
        if v >= arity {
            return None;
        }
        if out.insert(v) {
            todo.extend(update[v].vars());
        }
    }
    Some(out)
}

/// The closed forms of the variables `vars` (closed under the update's dependencies) when
/// the update is twn on them: each `x' = c·x + d`, `x` not in `d`, and no cycle of
/// dependencies through the `d`s. `None` otherwise.
pub fn closed_forms(update: &[Poly], vars: &BTreeSet<usize>) -> Option<BTreeMap<usize, PolyExp>> {
    let mut closed: BTreeMap<usize, PolyExp> = BTreeMap::new();
    let mut parts: BTreeMap<usize, (i128, Poly)> = BTreeMap::new();
    for &v in vars {
        let u = &update[v];
        let c = u.linear_coeff(v);
        let d = u.sub(&Poly::var(v).scale(c));
        if d.vars().contains(&v) {
            return None;
        }
        parts.insert(v, (c, d));
    }
    // Triangular order: solve a variable once everything its `d` uses is solved.
    while closed.len() < vars.len() {
        let ready = parts
            .iter()
            .find(|(v, (_, d))| {
                !closed.contains_key(v) && d.vars().iter().all(|w| closed.contains_key(w))
            })
            .map(|(v, _)| *v)?;
        let (c, d) = &parts[&ready];
        let form = solve(ready, *c, &substitute(d, &closed)?)?;
        closed.insert(ready, form);
    }
    Some(closed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Iterates the update from `x` and compares every variable's closed form, `n ≤ 6`.
    fn check(update: &[Poly], starts: &[Vec<i128>]) {
        let vars: BTreeSet<usize> = (0..update.len()).collect();
        let closed = closed_forms(update, &vars).expect("twn");
        for x0 in starts {
            let mut x = x0.clone();
            for n in 0..7u32 {
                for (v, f) in &closed {
                    let scaled = f.eval_scaled(x0, n).unwrap();
                    assert_eq!(
                        scaled,
                        f.den * x[*v],
                        "var {v}, n = {n}, start {x0:?}: {f:?}"
                    );
                }
                x = update.iter().map(|p| p.eval(&x).unwrap()).collect();
            }
        }
    }

    fn starts() -> Vec<Vec<i128>> {
        vec![
            vec![3, -2, 5],
            vec![-7, 4, 0],
            vec![0, 0, 1],
            vec![1, 9, -3],
        ]
    }

    #[test]
    fn polynomial_in_n() {
        // Lommen's twn13: A' = A + B²·C, B' = B − 2C², C' = C (A cubic in n).
        let (a, b, c) = (Poly::var(0), Poly::var(1), Poly::var(2));
        let update = vec![
            a.add(&b.pow(2).mul(&c)),
            b.sub(&c.pow(2).scale(2)),
            c.clone(),
        ];
        check(&update, &starts());
        // size06: A' = A + C², B' = B + 1, C' = C + 1.
        let update = vec![
            a.add(&c.pow(2)),
            b.add(&Poly::constant(1)),
            c.add(&Poly::constant(1)),
        ];
        check(&update, &starts());
    }

    #[test]
    fn exponential_mixed_and_resets() {
        // A' = 5A + C², B' = 2B, C' = 3C − 2B³ (bases 5, 9, 4, 3, 8, 2 …), and
        // A' = 2A + B·3^… with B' = 2B (the same base: n·2^n).
        let (a, b, c) = (Poly::var(0), Poly::var(1), Poly::var(2));
        let update = vec![
            a.scale(5).add(&c.pow(2)),
            b.scale(2),
            c.scale(3).sub(&b.pow(3).scale(2)),
        ];
        check(&update, &starts());
        let update = vec![a.scale(2).add(&b), b.scale(2), c.scale(-3).add(&a)];
        check(&update, &starts());
        // c = 0: A' = B² (a reset to a changing value: `[n = 0]` terms), B' = −2B + 1,
        // C' = C + A.
        let update = vec![b.pow(2), b.scale(-2).add(&Poly::constant(1)), c.add(&a)];
        check(&update, &starts());
    }

    #[test]
    fn not_triangular() {
        // B' = 3B − 4C, C' = 4B − 3C depend on each other; A' = A² is not linear in A.
        let (a, b, c) = (Poly::var(0), Poly::var(1), Poly::var(2));
        let vars: BTreeSet<usize> = [1, 2].into();
        let update = vec![
            a.clone(),
            b.scale(3).sub(&c.scale(4)),
            b.scale(4).sub(&c.scale(3)),
        ];
        assert!(closed_forms(&update, &vars).is_none());
        let update = vec![a.pow(2), b.clone(), c.clone()];
        assert!(closed_forms(&update, &[0].into()).is_none());
    }
}
