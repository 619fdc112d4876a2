//! Candidate invariants of arithmetical congruence (Granger's domain, "Static analysis of arithmetical
//! congruences", 1989): `x ≡ c (mod m)` at a loop head, for the moduli `m` a power of two that the
//! clauses suggest. Spacer over linear integer arithmetic does not state them (`x % 2 == 0` after a
//! loop adding 2 to `x` from 0), and the integer encoding loses `%` and `&` altogether
//! ([`crate::integers`]). With `m = 2^k` the congruence is `x & (m - 1) == c` on the bit-vectors, exact
//! under wrap-around (adding `d` keeps `x mod 2^k` moving by `d mod 2^k`, whatever the carry out of
//! the top bit), so [`crate::recheck::strengthen`]'s Houdini checks it with symex's own bit-precise
//! queries like any other candidate: nothing here is trusted.
//!
//! * The moduli: `2^t` for the trailing zeros `t` of each constant a step adds, subtracts or multiplies
//!   by (`x += 2`), and the powers of two the program takes remainders, masks, shifts or quotients by
//!   (`x % 2`, `x & 3`, `n >> 1`, `n / 2`), up to [`MAX_BITS`] bits.
//! * The residue `c`: each constant value a clause from elsewhere (the program's start, another loop)
//!   gives the cell on arrival.
//! * Disjunctions `a ∨ x ≡ c` and `¬a ∨ x ≡ c` with each comparison `a` of the cell with a constant in
//!   the runs from the head: a loop whose phases step differently (`x++` while `x < 0xfff0`, then
//!   `x += 2`) keeps the congruence only in its last phase.

use crate::clauses::Clauses;
use symex_expr::{Op, Sort, Term};

/// The largest modulus tried is `2^MAX_BITS`.
pub const MAX_BITS: u32 = 6;

/// The most comparisons per cell that join its congruences in disjunctions.
const MAX_ATOMS: usize = 8;

/// Per predicate of `c`, its congruence candidates over the parameters `named` marks.
pub fn candidates(c: &Clauses, named: &[Vec<bool>]) -> Vec<Vec<Term>> {
    let bits = moduli(c);
    (0..c.params.len())
        .map(|k| {
            let mut out: Vec<Term> = Vec::new();
            for (i, p) in c.params[k].iter().enumerate() {
                let Sort::BitVec(w) = p.sort() else {
                    continue;
                };
                if !named[k].get(i).copied().unwrap_or(false) {
                    continue;
                }
                let congruences: Vec<Term> = bits
                    .iter()
                    .filter(|&&t| t < w)
                    .flat_map(|&t| residues(c, k, i, t).into_iter().map(move |r| (t, r)))
                    .map(|(t, r)| {
                        let mask = (1u128 << t) - 1;
                        p.bvand(&Term::bv(mask, w)).eq(&Term::bv(r, w))
                    })
                    .collect();
                if congruences.is_empty() {
                    continue;
                }
                let atoms = comparisons(c, k, p);
                for q in &congruences {
                    push(&mut out, q.clone());
                    for a in &atoms {
                        push(&mut out, a.or(q));
                        push(&mut out, a.not().or(q));
                    }
                }
            }
            out
        })
        .collect()
}

fn push(out: &mut Vec<Term>, t: Term) {
    if !t.is_true() && !t.is_false() && !out.contains(&t) {
        out.push(t);
    }
}

/// The exponents `t` (1 ≤ t ≤ [`MAX_BITS`]) of the moduli `2^t` the clauses suggest, sorted.
fn moduli(c: &Clauses) -> Vec<u32> {
    let roots = c.terms_of(|_| true);
    let mut bits: Vec<u32> = Vec::new();
    symex_expr::visit::postorder(&roots, |t| {
        let a = t.args();
        let constant = |i: usize| a.get(i).and_then(Term::as_bv);
        let any_constant = || constant(0).or_else(|| constant(1));
        let found = match t.op() {
            // A step by `d` keeps `x mod 2^t` for the trailing zeros `t` of `d`.
            Op::BvAdd | Op::BvSub | Op::BvMul => any_constant().and_then(trailing_zeros),
            // `x % 2^t`, `x / 2^t`: the divisor a power of two.
            Op::BvUrem | Op::BvSrem | Op::BvSmod | Op::BvUdiv | Op::BvSdiv => {
                constant(1).and_then(power_of_two)
            }
            // `x & (2^t - 1)`.
            Op::BvAnd => any_constant().and_then(|m| power_of_two(m.checked_add(1)?)),
            // `x >> t`, `x << t`.
            Op::BvLshr | Op::BvAshr | Op::BvShl => constant(1).and_then(|s| u32::try_from(s).ok()),
            _ => None,
        };
        if let Some(b) = found.filter(|b| (1..=MAX_BITS).contains(b)) {
            if !bits.contains(&b) {
                bits.push(b);
            }
        }
    });
    bits.sort_unstable();
    bits
}

/// The trailing zeros of a non-zero constant.
fn trailing_zeros(d: u128) -> Option<u32> {
    (d != 0).then(|| d.trailing_zeros())
}

/// `t` when `v` is `2^t`.
fn power_of_two(v: u128) -> Option<u32> {
    v.is_power_of_two().then(|| v.trailing_zeros())
}

/// The residues modulo `2^t` of the constant values that clauses from elsewhere give parameter `i` of
/// predicate `k` on arrival.
fn residues(c: &Clauses, k: usize, i: usize, t: u32) -> Vec<u128> {
    let mut out = Vec::new();
    for v in c.constant_arrivals(k, i) {
        let res = v & ((1u128 << t) - 1);
        if !out.contains(&res) {
            out.push(res);
        }
    }
    out
}

/// The comparisons of `p` with a constant in the runs from predicate `k`'s head (their guards and
/// the values they carry to the next heads), at most [`MAX_ATOMS`].
fn comparisons(c: &Clauses, k: usize, p: &Term) -> Vec<Term> {
    c.comparisons(k, &[p], MAX_ATOMS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clauses::fixtures::{bv, one_loop, var};

    /// `x = 0; while (x < 0x0fffffff) x += 2;` as clauses: the only candidates are `x` even, alone and
    /// with the loop's comparison.
    #[test]
    fn a_step_of_two_from_zero_suggests_evenness() {
        let x = var("x");
        let bound = bv(0x0fff_ffff);
        let c = one_loop(
            std::slice::from_ref(&x),
            vec![bv(0)],
            x.bvult(&bound),
            vec![x.bvadd(&bv(2))],
        );
        let even = x.bvand(&bv(1)).eq(&bv(0));
        let ks = candidates(&c, &[vec![true]]);
        assert_eq!(ks.len(), 1);
        assert_eq!(ks[0][0], even);
        assert!(ks[0].contains(&x.bvult(&bound).or(&even)), "{:?}", ks[0]);
        assert!(ks[0].iter().all(|k| k.free_vars() == vec![x.clone()]));
    }

    /// A step of 1 and no power of two in the program: no candidate.
    #[test]
    fn a_step_of_one_suggests_nothing() {
        let x = var("x");
        let c = one_loop(
            std::slice::from_ref(&x),
            vec![bv(0)],
            x.bvult(&bv(10)),
            vec![x.bvadd(&bv(1))],
        );
        assert!(candidates(&c, &[vec![true]])[0].is_empty());
    }
}
