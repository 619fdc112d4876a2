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
                    // Where one step is ±1 and the other larger, the relation solved for the first
                    // (`k == n - i/2` for `k--` beside `i += 2` from `k = n, i = 0`): over the
                    // bit-vectors `2*k + i == 2*n` leaves `k`'s top bit free, the quotient does not
                    // (exact while `i - 0` is a multiple of 2, which a congruence states).
                    for (vx, vy) in arrivals(c, k, &steps, i, j) {
                        ts.extend(solved(x, &vx, steps[i], y, &vy, steps[j]));
                        ts.extend(solved(y, &vy, steps[j], x, &vx, steps[i]));
                    }
                    ts.extend(bound_templates(c, k, &steps, (i, j), combine));
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

/// The most comparisons of one variable that [`bound_templates`] combines.
const MAX_BOUNDS: usize = 4;

/// `x == x0 + dx·((y − y0) / dy)` (signed quotient) when `dx` is ±1 and `dy` is not: the affine
/// relation of `x` and `y` (with values `x0`, `y0` on arrival) solved for `x`.
fn solved(
    x: &Term,
    x0: &Term,
    dx: Option<u128>,
    y: &Term,
    y0: &Term,
    dy: Option<u128>,
) -> Option<Term> {
    let w = x.width();
    let (dx, dy) = (signed(dx?, w), signed(dy?, w));
    if dx.abs() != 1 || dy.abs() < 2 {
        return None;
    }
    let quotient = y.bvsub(y0).bvsdiv(&Term::bv(dy as u128, w));
    let moved = if dx == 1 {
        x0.bvadd(&quotient)
    } else {
        x0.bvsub(&quotient)
    };
    Some(x.eq(&moved))
}

/// `d` (modulo `2^w`) as a signed number.
pub(crate) fn signed(d: u128, w: u32) -> i128 {
    if w < 128 && (d >> (w - 1)) & 1 == 1 {
        d as i128 - (1i128 << w)
    } else {
        d as i128
    }
}

/// Templates over a loop's bound: where the runs from head `k` compare `y` with a term `B` over
/// variables no iteration changes (`j < n/2`) and `x` with a constant `c` (`k > 0`), the relation
/// that holds when `x` reaches `c` just as `y` reaches `B` — `dy·x − dx·y == dy·c − dx·B` — for as
/// long as the comparison holds: `¬(y ⋈ B) ∨ …` (`j >= n/2 || k + j == n/2`). Where the arrival's
/// values have no name over the head's variables (`k` from a first loop), no relation can be read off
/// them; that the check is tight is the guess Houdini tests.
fn bound_templates(
    c: &Clauses,
    k: usize,
    steps: &[Option<u128>],
    (i, j): (usize, usize),
    combine: impl Fn(&Term, &Term) -> Term,
) -> Vec<Term> {
    let params = &c.params[k];
    let frozen_term = |t: &Term| {
        let vars = t.free_vars();
        !t.is_const()
            && !params.contains(t)
            && !vars.is_empty()
            && vars.iter().all(|v| {
                params
                    .iter()
                    .position(|p| p == v)
                    .is_some_and(|q| steps[q] == Some(0))
            })
    };
    let with_constant = |x: &Term| -> Vec<Term> {
        c.comparisons(k, &[x], MAX_BOUNDS)
            .iter()
            .flat_map(|t| t.args().to_vec())
            .filter(|a| a.as_bv().is_some())
            .collect()
    };
    let mut out = Vec::new();
    for (x, y, swap) in [
        (&params[i], &params[j], false),
        (&params[j], &params[i], true),
    ] {
        let bounds = c.comparisons_where(k, MAX_BOUNDS, |a, b| {
            (a == y && frozen_term(b)) || (b == y && frozen_term(a))
        });
        for guard in &bounds {
            let a = guard.args();
            let bound = if a[0] == *y { &a[1] } else { &a[0] };
            for constant in with_constant(x) {
                // The values of the pair (i, j) at that point.
                let (at_i, at_j) = if swap {
                    (bound, &constant)
                } else {
                    (&constant, bound)
                };
                let relation = combine(&params[i], &params[j]).eq(&combine(at_i, at_j));
                out.push(guard.not().or(&relation));
            }
        }
    }
    out
}

/// Per predicate of `c`, `x == y` for two parameters (of those `named` marks, of one sort) that some
/// clause into it gives the same value: the affine equality a copy makes (`m = n` before an outer
/// loop, `n = m` after its inner loop), whatever the steps in between.
pub fn copies(c: &Clauses, named: &[Vec<bool>]) -> Vec<Vec<Term>> {
    (0..c.params.len())
        .map(|k| {
            let params = &c.params[k];
            let cells: Vec<usize> = (0..params.len())
                .filter(|&i| named[k].get(i).copied().unwrap_or(false))
                .collect();
            let mut out: Vec<Term> = Vec::new();
            for r in &c.rules {
                let Some((to, args)) = &r.to else {
                    continue;
                };
                if *to != k {
                    continue;
                }
                for (a, &i) in cells.iter().enumerate() {
                    for &j in &cells[a + 1..] {
                        // Two equal constants are a relation of the steps (above), not a copy.
                        if params[i].sort() != params[j].sort()
                            || args[i] != args[j]
                            || args[i].is_const()
                        {
                            continue;
                        }
                        let t = params[i].eq(&params[j]);
                        if !out.contains(&t) {
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
pub(crate) fn steps(c: &Clauses, k: usize) -> Option<Vec<Option<u128>>> {
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
    use crate::clauses::fixtures::{bv, one_loop, var};
    use crate::clauses::Rule;

    /// `m = n; while (…) { m = n + 1; n = m; }` (the back edge gives both the same value): `m == n`,
    /// and nothing for the unnamed temporary beside them.
    #[test]
    fn a_copy_suggests_an_equality() {
        let (m, n, t, input) = (var("m"), var("n"), var("t"), var("input"));
        let next = n.bvadd(&bv(1));
        let c = one_loop(
            &[m.clone(), n.clone(), t.clone()],
            vec![input.clone(), input.clone(), input.clone()],
            n.bvult(&bv(10)),
            vec![next.clone(), next.clone(), next],
        );
        let ks = copies(&c, &[vec![true, true, false]]);
        assert_eq!(ks[0], vec![m.eq(&n)]);
    }

    /// `k = n; i = 0; while (i < n) { k--; i += 2; }`: besides `2*k + i == 2*n`, the relation solved
    /// for `k`, `k == n - (i - 0)/2`.
    #[test]
    fn a_step_of_two_beside_one_suggests_the_quotient() {
        let (k, i, n, input) = (var("k"), var("i"), var("n"), var("input"));
        let c = one_loop(
            &[k.clone(), i.clone(), n.clone()],
            vec![input.clone(), bv(0), input.clone()],
            i.bvslt(&n),
            vec![k.bvsub(&bv(1)), i.bvadd(&bv(2)), n.clone()],
        );
        let ks = candidates(&c, &[vec![true, true, true]]);
        let quotient = k.eq(&n.bvsub(&i.bvsub(&bv(0)).bvsdiv(&bv(2))));
        assert!(ks[0].contains(&quotient), "{:?}", ks[0]);
    }

    /// `j = 0; while (j < n/2) { assert(k > 0); k--; j++; }` with `k` from elsewhere: the template
    /// `!(j < n/2) || k + j == 0 + n/2` (as `1*k - (-1)*j`).
    #[test]
    fn a_bound_and_a_check_suggest_a_template() {
        let (k, j, n, input) = (var("k"), var("j"), var("n"), var("input"));
        let half = n.bvsdiv(&bv(2));
        let guard = j.bvslt(&half);
        let check = bv(0).bvslt(&k);
        let mut c = one_loop(
            &[k.clone(), j.clone(), n.clone()],
            vec![input.clone(), bv(0), n.clone()],
            guard.and(&check),
            vec![k.bvsub(&bv(1)), j.bvadd(&bv(1)), n.clone()],
        );
        c.rules.push(Rule {
            from: Some(0),
            guard: guard.and(&check.not()),
            to: None,
        });
        let ks = candidates(&c, &[vec![true, true, true]]);
        let m1 = bv(u32::MAX as u128);
        let combine = |p: &Term, q: &Term| bv(1).bvmul(p).bvsub(&m1.bvmul(q));
        let template = guard.not().or(&combine(&k, &j).eq(&combine(&bv(0), &half)));
        assert!(ks[0].contains(&template), "{:?}", ks[0]);
    }

    /// `x = n; y = 0; while (x > 0) { x--; y++; }`: the candidate `1*x - (-1)*y == 1*n - (-1)*0`, that
    /// is `x + y == n` (as the simplifier writes it).
    #[test]
    fn counting_down_and_up_suggests_the_sum() {
        let (x, y, n, input) = (var("x"), var("y"), var("n"), var("input"));
        let c = one_loop(
            &[x.clone(), y.clone(), n.clone()],
            vec![input.clone(), bv(0), input.clone()],
            x.ne(&bv(0)),
            vec![x.bvadd(&bv(u32::MAX as u128)), y.bvadd(&bv(1)), n.clone()],
        );
        let ks = candidates(&c, &[vec![true, true, true]]);
        assert_eq!(ks[0].len(), 1, "{:?}", ks[0]);
        // The candidate holds exactly when x + y == n (checked on a few values by evaluation).
        let m1 = bv(u32::MAX as u128);
        let expected = bv(1)
            .bvmul(&x)
            .bvsub(&m1.bvmul(&y))
            .eq(&bv(1).bvmul(&n).bvsub(&m1.bvmul(&bv(0))));
        assert_eq!(ks[0][0], expected);
    }
}
