//! Candidate invariants from the comparisons between two cells, or a cell and a constant, in the runs
//! from a loop head (the seeds of predicate abstraction, as Houdini's annotation generator proposes
//! them): the comparison, its negation, and for a strict `x < y` the weaker `x <= y`, which a loop
//! `while (x < y)` stepping `x` by at most the gap keeps and which gives `x == y` on exit; `x != 0`
//! from a division's check `x == 0`. Spacer over integers misses such facts when the step is beyond
//! linear arithmetic (`x *= x` under `x < y / x`, whose product and quotient the integer encoding
//! leaves unconstrained, [`crate::integers`]); the bit-vector queries of
//! [`crate::recheck::strengthen`] decide them exactly.
//!
//! For a counter (a cell every iteration steps by one constant from constant starts) the bounds an
//! interval analysis would find for it: its start on one side (`i >= 0`), and one step past the bound
//! it is compared with on the other (`i == 0 || i < n + 2` for `i += 2` while `i < n`), which tells
//! the code after the loop where the counter ended.

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
            for t in counters(c, k, &named[k]) {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
            out
        })
        .collect()
}

/// The bounds of the counters at predicate `k`'s head: a parameter (of those `named` marks) that
/// every iteration steps by one constant `d`, from constant values `x0` on arrival, stays on one side
/// of them while it does not wrap (`x >= x0` for `d > 0`, signed and unsigned); and where the runs
/// compare it with a bound `b` no iteration changes, `x < b`, it ends at most one step past it:
/// `x == x0 || x < b + d` (`i == 0 || i < n + 2` for `i += 2` while `i < n`; the first disjunct for
/// the loop that never runs, `n < 0`).
fn counters(c: &Clauses, k: usize, named: &[bool]) -> Vec<Term> {
    let Some(steps) = crate::affine::steps(c, k) else {
        return Vec::new();
    };
    let params = &c.params[k];
    let mut out = Vec::new();
    for (i, x) in params.iter().enumerate() {
        let Some(d) = steps[i].filter(|_| named.get(i).copied().unwrap_or(false)) else {
            continue;
        };
        let w = x.width();
        let up = crate::affine::signed(d, w);
        if up == 0 {
            continue;
        }
        let starts = c.constant_arrivals(k, i);
        for x0 in &starts {
            let x0 = Term::bv(*x0, w);
            if up > 0 {
                out.extend([x0.bvsle(x), x0.bvule(x)]);
            } else {
                out.extend([x.bvsle(&x0), x.bvule(&x0)]);
            }
        }
        if up < 0 {
            continue;
        }
        let unchanged = |t: &Term| {
            t.as_bv().is_some()
                || params
                    .iter()
                    .position(|p| p == t)
                    .is_some_and(|q| steps[q] == Some(0))
        };
        let bounds = c.comparisons_where(k, MAX_COMPARISONS, |a, b| a == x && unchanged(b));
        for guard in bounds {
            let b = &guard.args()[1];
            let past = b.bvadd(&Term::bv(d, w));
            let overshoot = match guard.op() {
                Op::BvSlt => x.bvslt(&past),
                Op::BvUlt => x.bvult(&past),
                _ => continue,
            };
            out.push(overshoot.clone());
            for x0 in &starts {
                out.push(x.eq(&Term::bv(*x0, w)).or(&overshoot));
            }
        }
    }
    out.retain(|t| !t.is_true() && !t.is_false());
    out
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
    c.comparisons(k, &params, MAX_COMPARISONS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clauses::fixtures::{bv, one_loop, var};

    /// `while (x < y) x++;`: `x < y`, its negation and `x <= y`.
    #[test]
    fn a_strict_loop_condition_suggests_its_weakening() {
        let (x, y) = (var("x"), var("y"));
        let c = one_loop(
            &[x.clone(), y.clone()],
            vec![bv(0), y.clone()],
            x.bvult(&y),
            vec![x.bvadd(&bv(1)), y.clone()],
        );
        let ks = candidates(&c, &[vec![true, true]]);
        assert_eq!(ks[0][..3], [x.bvult(&y), x.bvult(&y).not(), x.bvule(&y)]);
    }

    /// `i = 0; while (i < n) i += 2;` (signed): `i >= 0`, and the exit at most one step past `n`,
    /// `i < n + 2`, also as `i == 0 || i < n + 2` for the loop that never runs.
    #[test]
    fn a_counter_is_bounded_by_its_start_and_one_step_past_its_bound() {
        let (i, n) = (var("i"), var("n"));
        let c = one_loop(
            &[i.clone(), n.clone()],
            vec![bv(0), n.clone()],
            i.bvslt(&n),
            vec![i.bvadd(&bv(2)), n.clone()],
        );
        let ks = candidates(&c, &[vec![true, true]]);
        let past = i.bvslt(&n.bvadd(&bv(2)));
        for k in [bv(0).bvsle(&i), past.clone(), i.eq(&bv(0)).or(&past)] {
            assert!(ks[0].contains(&k), "{k:?} not in {:?}", ks[0]);
        }
    }
}
