//! Candidate invariants of affine equality between two variables that every iteration steps by a
//! constant (Karr's affine relations, "Affine relationships among variables of a program", 1976, for
//! the loops whose steps are constants): if `x` moves by `dx` and `y` by `dy` along every run from the
//! head back to it, `dy·x − dx·y` never changes, so it equals its value on arrival. Modulo `2^w` the
//! relation is exact on the bit-vectors, wrap-around included (Müller-Olm and Seidl, "Analysis of
//! modular arithmetic", 2007): `x + y == n` for `x` counting down from `n` while `y` counts up, and
//! `2*k + i == 2*n` for `k--` beside `i += 2`. The arrival's value is written over the head's own
//! variables: a constant, or a variable no iteration changes that arrives with the same value (`x = n`
//! before the loop gives `n`). Two variables with the same step also keep their order while neither
//! wraps: where their difference on arrival has no such name, `x <= y` and `y <= x`, signed and
//! unsigned, are candidates instead. Spacer over integers finds
//! such relations only sometimes (libz3 4.8.12:
//! `x + y == n` with one of four ways of asking); here they are candidates for
//! [`crate::recheck::strengthen`]'s Houdini, which checks them on the bit-vectors.

use crate::clauses::Clauses;
use rustc_hash::FxHashMap;
use symex_expr::{Op, Sort, Term};

/// Per predicate of `c`, its candidates over pairs of the parameters `named` marks.
pub fn candidates(c: &Clauses, named: &[Vec<bool>]) -> Vec<Vec<Term>> {
    (0..c.params.len())
        .map(|k| {
            let params = &c.params[k];
            let Some(steps) = steps(c, k) else {
                return Vec::new();
            };
            let moving: Vec<usize> = (0..params.len())
                .filter(|&i| named[k].get(i).copied().unwrap_or(false))
                .filter(|&i| steps[i].is_some_and(|d| d != 0))
                .collect();
            let mut out: Vec<Term> = Vec::new();
            for (a, &i) in moving.iter().enumerate() {
                for &j in &moving[a + 1..] {
                    let (x, y) = (&params[i], &params[j]);
                    if x.sort() != y.sort() {
                        continue;
                    }
                    let w = x.width();
                    let (dx, dy) = (
                        Term::bv(steps[i].unwrap_or(0), w),
                        Term::bv(steps[j].unwrap_or(0), w),
                    );
                    // dy·x − dx·y, and the same over each arrival's values.
                    let combine = |p: &Term, q: &Term| dy.bvmul(p).bvsub(&dx.bvmul(q));
                    let mut ts: Vec<Term> = arrivals(c, k, &steps, i, j)
                        .iter()
                        .map(|(vx, vy)| combine(x, y).eq(&combine(vx, vy)))
                        .collect();
                    // Equal steps keep the order of the two too, as long as neither wraps: where the
                    // arrival's difference has no name (`k` after a first loop that counted it with
                    // `i`, beside `j = n`), the order is what a check needs (`j <= k`).
                    if steps[i] == steps[j] && ts.is_empty() {
                        ts.extend([x.bvsle(y), y.bvsle(x), x.bvule(y), y.bvule(x)]);
                    }
                    for t in ts {
                        if !t.is_true() && !t.is_false() && !out.contains(&t) {
                            out.push(t);
                        }
                    }
                }
            }
            out
        })
        .collect()
}

/// Per parameter of predicate `k`, its step (modulo its width) along every run from the head back to
/// it, when that is one constant (0 for a parameter no run changes); `None` when the head has no such
/// run.
fn steps(c: &Clauses, k: usize) -> Option<Vec<Option<u128>>> {
    let params = &c.params[k];
    let own: Vec<&Vec<Term>> = c
        .rules
        .iter()
        .filter(|r| r.from == Some(k))
        .filter_map(|r| match &r.to {
            Some((to, args)) if *to == k => Some(args),
            _ => None,
        })
        .collect();
    if own.is_empty() {
        return None;
    }
    Some(
        params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut d: Option<u128> = None;
                for args in &own {
                    let s = step(p, &args[i])?;
                    if d.is_some_and(|e| e != s) {
                        return None;
                    }
                    d = Some(s);
                }
                d
            })
            .collect(),
    )
}

/// `d` when `v` is `p + d` (or `p − d`, `p` itself) for a constant `d`, modulo `p`'s width.
fn step(p: &Term, v: &Term) -> Option<u128> {
    let Sort::BitVec(w) = p.sort() else {
        return None;
    };
    let mask = if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    };
    if v == p {
        return Some(0);
    }
    let a = v.args();
    match v.op() {
        Op::BvAdd if a.len() == 2 => {
            if a[0] == *p {
                a[1].as_bv()
            } else if a[1] == *p {
                a[0].as_bv()
            } else {
                None
            }
        }
        Op::BvSub if a.len() == 2 && a[0] == *p => a[1].as_bv().map(|d| d.wrapping_neg() & mask),
        _ => None,
    }
}

/// The values of parameters `i` and `j` on each arrival at predicate `k` from elsewhere, written over
/// `k`'s parameters: constants stay, and a value that a parameter no iteration changes (step 0)
/// arrives with is replaced by that parameter. Arrivals whose values keep other variables are left
/// out.
fn arrivals(
    c: &Clauses,
    k: usize,
    steps: &[Option<u128>],
    i: usize,
    j: usize,
) -> Vec<(Term, Term)> {
    let params = &c.params[k];
    let mut out = Vec::new();
    for r in c.rules.iter().filter(|r| r.from != Some(k)) {
        let Some((to, args)) = &r.to else {
            continue;
        };
        if *to != k {
            continue;
        }
        let mut map: FxHashMap<Term, Term> = FxHashMap::default();
        for (q, (p, a)) in params.iter().zip(args).enumerate() {
            if q != i && q != j && steps[q] == Some(0) && !a.is_const() {
                map.entry(a.clone()).or_insert_with(|| p.clone());
            }
        }
        let (vx, vy) = (args[i].substitute(&map), args[j].substitute(&map));
        let over_params = [&vx, &vy]
            .iter()
            .all(|t| t.free_vars().iter().all(|v| params.contains(v)));
        if over_params {
            out.push((vx, vy));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clauses::Rule;

    /// `x = n; y = 0; while (x > 0) { x--; y++; }`: the candidate `1*x - (-1)*y == 1*n - (-1)*0`, that
    /// is `x + y == n` (as the simplifier writes it).
    #[test]
    fn counting_down_and_up_suggests_the_sum() {
        let bv = |v: u128| Term::bv(v, 32);
        let (x, y, n) = (
            Term::var("x", Sort::bv(32)),
            Term::var("y", Sort::bv(32)),
            Term::var("n", Sort::bv(32)),
        );
        let input = Term::var("input", Sort::bv(32));
        let c = Clauses {
            params: vec![vec![x.clone(), y.clone(), n.clone()]],
            rules: vec![
                Rule {
                    from: None,
                    guard: Term::tt(),
                    to: Some((0, vec![input.clone(), bv(0), input.clone()])),
                },
                Rule {
                    from: Some(0),
                    guard: x.ne(&bv(0)),
                    to: Some((
                        0,
                        vec![x.bvadd(&bv(u32::MAX as u128)), y.bvadd(&bv(1)), n.clone()],
                    )),
                },
            ],
            violations: Vec::new(),
        };
        let ks = candidates(&c, &[vec![true, true, true]]);
        assert_eq!(ks[0].len(), 1, "{:?}", ks[0]);
        // The candidate holds exactly when x + y == n (checked on a few values by evaluation).
        let m1 = Term::bv(u32::MAX as u128, 32);
        let expected = bv(1)
            .bvmul(&x)
            .bvsub(&m1.bvmul(&y))
            .eq(&bv(1).bvmul(&n).bvsub(&m1.bvmul(&bv(0))));
        assert_eq!(ks[0][0], expected);
    }
}
