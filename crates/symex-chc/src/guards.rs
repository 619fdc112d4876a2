//! Candidate invariants from the comparisons between two cells, or a cell and a constant, in the runs
//! from a loop head (the seeds of predicate abstraction, as Houdini's annotation generator proposes
//! them): the comparison, its negation, and for a strict `x < y` the weaker `x <= y`, which a loop
//! `while (x < y)` stepping `x` by at most the gap keeps and which gives `x == y` on exit; `x != 0`
//! from a division's check `x == 0`. Spacer over integers misses such facts when the step is beyond
//! linear arithmetic (`x *= x` under `x < y / x`, whose product and quotient the integer encoding
//! leaves unconstrained, [`crate::integers`]); the bit-vector queries of
//! [`crate::recheck::strengthen`] decide them exactly.

use crate::clauses::Clauses;
use symex_expr::{Op, Term};

/// The most comparisons per loop head.
const MAX_COMPARISONS: usize = 8;

/// Per predicate of `c`, its candidates over pairs of the parameters `named` marks.
pub fn candidates(c: &Clauses, named: &[Vec<bool>]) -> Vec<Vec<Term>> {
    (0..c.params.len())
        .map(|k| {
            let mut out: Vec<Term> = Vec::new();
            for a in comparisons(c, k, &named[k]) {
                let x = a.args();
                let weaker = match a.op() {
                    Op::BvUlt => Some(x[0].bvule(&x[1])),
                    Op::BvSlt => Some(x[0].bvsle(&x[1])),
                    _ => None,
                };
                for t in [Some(a.clone()), Some(a.not()), weaker]
                    .into_iter()
                    .flatten()
                {
                    if !t.is_true() && !t.is_false() && !out.contains(&t) {
                        out.push(t);
                    }
                }
            }
            out
        })
        .collect()
}

/// The comparisons between two distinct parameters of predicate `k` (marked in `named`), or one and a
/// constant, in the runs from its head.
fn comparisons(c: &Clauses, k: usize, named: &[bool]) -> Vec<Term> {
    let params: Vec<&Term> = c.params[k]
        .iter()
        .zip(named)
        .filter(|(_, n)| **n)
        .map(|(p, _)| p)
        .collect();
    let mut roots: Vec<Term> = Vec::new();
    for r in c.rules.iter().filter(|r| r.from == Some(k)) {
        roots.push(r.guard.clone());
        roots.extend(r.to.iter().flat_map(|(_, a)| a.iter().cloned()));
    }
    let mut out: Vec<Term> = Vec::new();
    symex_expr::visit::postorder(&roots, |t| {
        let a = t.args();
        let operand = |x: &Term| params.contains(&x) || x.as_bv().is_some();
        let over_cells = matches!(
            t.op(),
            Op::BvUlt | Op::BvUle | Op::BvSlt | Op::BvSle | Op::Eq
        ) && a[0] != a[1]
            && operand(&a[0])
            && operand(&a[1])
            && (params.contains(&&a[0]) || params.contains(&&a[1]));
        if over_cells && out.len() < MAX_COMPARISONS && !out.contains(t) {
            out.push(t.clone());
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clauses::Rule;
    use symex_expr::Sort;

    /// `while (x < y) x++;`: `x < y`, its negation and `x <= y`.
    #[test]
    fn a_strict_loop_condition_suggests_its_weakening() {
        let x = Term::var("x", Sort::bv(32));
        let y = Term::var("y", Sort::bv(32));
        let c = Clauses {
            params: vec![vec![x.clone(), y.clone()]],
            rules: vec![Rule {
                from: Some(0),
                guard: x.bvult(&y),
                to: Some((0, vec![x.bvadd(&Term::bv(1, 32)), y.clone()])),
            }],
            violations: Vec::new(),
        };
        let ks = candidates(&c, &[vec![true, true]]);
        assert_eq!(ks[0], vec![x.bvult(&y), x.bvult(&y).not(), x.bvule(&y)]);
    }
}
