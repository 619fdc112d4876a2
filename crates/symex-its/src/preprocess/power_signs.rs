//! Sign cases of powers in guards, so that Farkas' lemma sees a linear consequence of a
//! non-linear atom. Over the integers, for `k ≥ 2`: `x^k ≥ x` when `x ≥ 0`; when
//! `x ≤ −1`, `x^k ≤ x` for odd `k` and `x^k ≥ −x` for even `k`. A guard atom
//! `a·x^k + q ≥ 0` (`q` linear) then implies a linear atom in a case where `a·x^k` is at
//! most `a·x` (or `−a·x`): VMCAI'05's `poly3` guard `B³ ≥ C` gives `B ≥ C` when
//! `B ≤ −1`. Each such transition becomes one per sign case of `x`, with the sign atom and
//! the implied atom added: the cases cover every state of the guard, so the runs are the
//! same.

use crate::its::{Atom, Its, Rel, Transition};
use crate::poly::Poly;

/// Sign cases split per transition at most (variables `2^3`).
const MAX_CASE_VARS: usize = 3;

/// The ITS with each transition split by the signs of the variables whose powers its
/// guard compares (see the module comment), or `None` when no atom gains a linear
/// consequence that way.
pub fn split_power_signs(its: &Its) -> Option<Its> {
    let mut out = its.clone();
    out.transitions.clear();
    let mut changed = false;
    for t in &its.transitions {
        let cases = split_transition(t);
        changed |= cases.len() > 1;
        out.transitions.extend(cases);
    }
    changed.then_some(out)
}

/// `t` split by the sign of each variable (up to [`MAX_CASE_VARS`]) that some atom of its
/// guard has a power of with a linear consequence in one of the cases; `[t]` if none.
fn split_transition(t: &Transition) -> Vec<Transition> {
    let mut vars: Vec<usize> = Vec::new();
    for a in &t.guard {
        if let Some((x, _, _, _)) = power_atom(a) {
            let useful = implied_atom(a, x, false).is_some() || implied_atom(a, x, true).is_some();
            if useful && !vars.contains(&x) && vars.len() < MAX_CASE_VARS {
                vars.push(x);
            }
        }
    }
    let mut cases = vec![t.clone()];
    for &x in &vars {
        let mut next = Vec::new();
        for c in &cases {
            for negative in [false, true] {
                let mut u = c.clone();
                // x ≥ 0, or −x − 1 ≥ 0.
                let sign = if negative {
                    Poly::var(x).scale(-1).sub(&Poly::constant(1))
                } else {
                    Poly::var(x)
                };
                u.guard.push(Atom::ge0(sign));
                let implied: Vec<Atom> = c
                    .guard
                    .iter()
                    .filter_map(|a| implied_atom(a, x, negative))
                    .collect();
                u.guard.extend(implied);
                next.push(u);
            }
        }
        cases = next;
    }
    cases
}

/// `a ≡ c·x^k + q ≥ 0` with one non-linear monomial, a power `x^k` (`k ≥ 2`), and `q`
/// linear: `(x, k, c, q)`.
fn power_atom(a: &Atom) -> Option<(usize, u32, i128, Poly)> {
    if a.rel != Rel::Ge {
        return None;
    }
    let mut power = None;
    let mut rest = Poly::constant(0);
    for (m, c) in a.poly.terms() {
        let degree: u32 = m.iter().map(|(_, e)| e).sum();
        if degree <= 1 {
            rest = rest.add(&monomial(m, c));
        } else if power.is_none() && m.len() == 1 {
            power = Some((m[0].0, m[0].1, c));
        } else {
            return None;
        }
    }
    let (x, k, c) = power?;
    Some((x, k, c, rest))
}

/// The linear atom `a` implies in the sign case of `x` (`negative`: `x ≤ −1`), if any:
/// `c·x^k ≤ c·x` (or `≤ −c·x`) there makes `c·x^k + q ≥ 0` imply `c·x + q ≥ 0` (or
/// `−c·x + q ≥ 0`).
fn implied_atom(a: &Atom, x: usize, negative: bool) -> Option<Atom> {
    let (y, k, c, q) = power_atom(a)?;
    if y != x {
        return None;
    }
    // The linear term L with x^k ≥ L (c < 0) or x^k ≤ L (c > 0) in this case.
    let (linear, needs_negative_c) = match (negative, k % 2 == 1) {
        // x ≥ 0: x^k ≥ x.
        (false, _) => (Poly::var(x), true),
        // x ≤ −1, k odd: x^k ≤ x.
        (true, true) => (Poly::var(x), false),
        // x ≤ −1, k even: x^k ≥ −x.
        (true, false) => (Poly::var(x).scale(-1), true),
    };
    if (c < 0) != needs_negative_c {
        return None;
    }
    Some(Atom::ge0(linear.scale(c).add(&q)))
}

fn monomial(m: &[(usize, u32)], c: i128) -> Poly {
    m.iter()
        .fold(Poly::constant(c), |p, &(v, e)| p.mul(&Poly::var(v).pow(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every integer point of a small box: the split transitions' guards hold exactly
    /// where the original guard does (one case each), so the runs are the same.
    #[test]
    fn the_cases_partition_the_guard() {
        // B³ − C ≥ 0, −2·A² + B + 3 ≥ 0 (two cases each), A^4 + C ≥ 0 (no linear
        // consequence: not split) over (A, B, C).
        let atoms = [
            Atom::ge0(Poly::var(1).pow(3).sub(&Poly::var(2))),
            Atom::ge0(
                Poly::var(0)
                    .pow(2)
                    .scale(-2)
                    .add(&Poly::var(1))
                    .add(&Poly::constant(3)),
            ),
            Atom::ge0(Poly::var(0).pow(4).add(&Poly::var(2))),
        ];
        for (atom, split) in atoms.into_iter().zip([2, 2, 1]) {
            let t = Transition {
                source: 0,
                targets: vec![(0, vec![Poly::var(0), Poly::var(1), Poly::var(2)])],
                guard: vec![atom],
                cost: Poly::constant(1),
                temps: Vec::new(),
                com: true,
            };
            let cases = split_transition(&t);
            assert_eq!(cases.len(), split, "{:?}", t.guard);
            for a in -6i128..=6 {
                for b in -6i128..=6 {
                    for c in -40i128..=40 {
                        let holds =
                            |g: &[Atom]| g.iter().all(|x| x.holds(&[a, b, c]) == Some(true));
                        let n = cases.iter().filter(|u| holds(&u.guard)).count();
                        assert_eq!(n, usize::from(holds(&t.guard)), "({a}, {b}, {c})");
                    }
                }
            }
        }
    }
}
