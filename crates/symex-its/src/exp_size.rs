//! Multiplicative size changes: an update `v' = a·v + r` with `r` free of `v`. Over `n`
//! such steps `|v|` grows at most by `|a|^n` times the added parts (see
//! `complexity::Ctx::scc_var_size_uncached`), which gives exponential size bounds
//! ([`crate::exp_bound`]) where additive reasoning has none (`x' = 2·x`).

use crate::its::Transition;
use crate::poly::Poly;
use std::collections::BTreeSet;

/// `p = a·v + r` with `r` free of `v`: `(a, r)`; `None` when `v` occurs non-linearly
/// (`v²`, `v·w`).
pub fn split_linear(p: &Poly, v: usize) -> Option<(i128, Poly)> {
    let a = p.linear_coeff(v);
    let r = p.sub(&Poly::var(v).scale(a));
    (!r.vars().contains(&v)).then_some((a, r))
}

/// `p = a·v^k + r` with `k ≥ 1` and `r` free of `v` (size14's `B' = B²`: `(1, 2, 0)`):
/// `(a, k, r)`; `None` when `v` occurs in two monomials or beside another variable (`v² + v`,
/// `v·w`). A `p` free of `v` is `(0, 1, p)`.
pub fn split_power(p: &Poly, v: usize) -> Option<(i128, u32, Poly)> {
    let mut power = None;
    for (m, c) in p.terms() {
        if !m.iter().any(|(w, _)| *w == v) {
            continue;
        }
        match m.as_slice() {
            [(_, k)] if power.is_none() => power = Some((c, *k)),
            _ => return None,
        }
    }
    let (a, k) = power.unwrap_or((0, 1));
    let r = p.sub(&Poly::var(v).pow(k).scale(a));
    Some((a, k, r))
}

/// The variables whose updates on `ts` depend on each other with `v` (`x' = x + y`,
/// `y' = x + y`): those `v` reaches and that reach `v` in the graph `u → w` for `w`
/// occurring in `u`'s update. Their sizes have to be bounded together.
pub fn dependency_group(ts: &[&Transition], n: usize, v: usize) -> BTreeSet<usize> {
    let deps = |u: usize| -> BTreeSet<usize> {
        ts.iter()
            .flat_map(|t| t.update()[u].vars())
            .filter(|w| *w < n && *w != u)
            .collect()
    };
    let reach = |from: usize| -> BTreeSet<usize> {
        let mut seen = BTreeSet::from([from]);
        let mut work = vec![from];
        while let Some(u) = work.pop() {
            for w in deps(u) {
                if seen.insert(w) {
                    work.push(w);
                }
            }
        }
        seen
    };
    reach(v)
        .into_iter()
        .filter(|&w| reach(w).contains(&v))
        .collect()
}

/// How `t` changes `S = Σ_{u∈group} |u|` when every update of the group is linear in the
/// group's variables: `S' ≤ F·S + Σ_u |r_u|` with `F` the largest column sum
/// `max_w Σ_u |a_{u,w}|` of the coefficients and `r_u` the rest of `u`'s update (free of
/// the group). `(F, [r_u])`; `None` when a group variable occurs non-linearly.
pub fn group_step(t: &Transition, group: &BTreeSet<usize>) -> Option<(i128, Vec<Poly>)> {
    let mut column = vec![0i128; group.len()];
    let mut rests = Vec::new();
    for &u in group {
        let mut r = t.update()[u].clone();
        for (k, &w) in group.iter().enumerate() {
            let a = r.linear_coeff(w);
            column[k] = column[k].checked_add(a.checked_abs()?)?;
            r = r.sub(&Poly::var(w).scale(a));
        }
        if r.vars().iter().any(|w| group.contains(w)) {
            return None;
        }
        rests.push(r);
    }
    Some((column.into_iter().max().unwrap_or(0), rests))
}

/// How `t` changes `M = max_{u∈group} |u|` when every update of the group copies at most
/// one group variable (`u' = ±w + r_u`, `r_u` free of the group): `M' ≤ M + max_u |r_u|`,
/// and `M' ≤ max(M, max_u |r_u|)` when each update is a plain copy (`r_u = 0`) or free of
/// the group (a reset): then the step adds its `|r_u|` at most once, however often it
/// runs. Copies between the variables of a group (`D' = C` and `C' = D − 1`) keep the
/// maximum where the sum `Σ|u|` of [`group_step`] would double. An update for which
/// `keeps(u)` holds (proved never to grow `|u|`, `C' = C − 1` under `C ≥ 0`) counts as a
/// plain copy. `(0 or 1, [r_u])`, as [`group_step`]'s factor; `None` otherwise.
pub fn group_max_step(
    t: &Transition,
    group: &BTreeSet<usize>,
    keeps: &mut dyn FnMut(usize) -> bool,
) -> Option<(i128, Vec<Poly>)> {
    let mut rests = Vec::new();
    let mut factor = 0;
    for &u in group {
        if keeps(u) {
            rests.push(Poly::default());
            continue;
        }
        let mut r = t.update()[u].clone();
        let mut copied = 0;
        for &w in group {
            let a = r.linear_coeff(w);
            if a != 0 {
                if a.abs() != 1 {
                    return None;
                }
                copied += 1;
                r = r.sub(&Poly::var(w).scale(a));
            }
        }
        if copied > 1 || r.vars().iter().any(|w| group.contains(w)) {
            return None;
        }
        if copied == 1 && !r.is_zero() {
            factor = 1;
        }
        rests.push(r);
    }
    Some((factor, rests))
}

/// How `t` changes `M = max_{u∈group} |u|` when every update of the group is linear in
/// the group's variables: `M' ≤ F·M + max_u |r_u|` with `F` the largest row sum
/// `max_u Σ_w |a_{u,w}|` (`D' = B + C` doubles the maximum, while `B' = D, C' = A` beside it
/// keep it, where the sum `Σ|u|` of [`group_step`] doubles on both). An update for which
/// `keeps(u)` holds counts as a plain copy. `(F, [r_u])`, as [`group_step`]'s; `None` when
/// a group variable occurs non-linearly.
pub fn group_max_linear_step(
    t: &Transition,
    group: &BTreeSet<usize>,
    keeps: &mut dyn FnMut(usize) -> bool,
) -> Option<(i128, Vec<Poly>)> {
    let mut factor = 0i128;
    let mut rests = Vec::new();
    for &u in group {
        if keeps(u) {
            factor = factor.max(1);
            rests.push(Poly::default());
            continue;
        }
        let mut r = t.update()[u].clone();
        let mut row: i128 = 0;
        for &w in group {
            let a = r.linear_coeff(w);
            row = row.checked_add(a.checked_abs()?)?;
            r = r.sub(&Poly::var(w).scale(a));
        }
        if r.vars().iter().any(|w| group.contains(w)) {
            return None;
        }
        factor = factor.max(row);
        rests.push(r);
    }
    Some((factor, rests))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_linear_occurrences_only() {
        let (x, y) = (Poly::var(0), Poly::var(1));
        let p = x.scale(3).add(&y.mul(&y)).add(&Poly::constant(2));
        let (a, r) = split_linear(&p, 0).unwrap();
        assert_eq!(a, 3);
        assert_eq!(r.eval(&[100, 4]), Some(18));
        assert_eq!(split_linear(&y, 0), Some((0, y.clone())));
        assert_eq!(split_linear(&x.mul(&y), 0), None);
        assert_eq!(split_linear(&x.mul(&x), 0), None);
    }

    #[test]
    fn splits_a_power_of_the_variable() {
        let (x, y) = (Poly::var(0), Poly::var(1));
        let p = x.pow(3).scale(-2).add(&y).add(&Poly::constant(5));
        let (a, k, r) = split_power(&p, 0).unwrap();
        assert_eq!((a, k), (-2, 3));
        // Brute force: p = a·x^k + r on a grid.
        for xv in -4..=4i128 {
            for yv in -4..=4i128 {
                let vals = [xv, yv];
                assert_eq!(p.eval(&vals), Some(a * xv.pow(k) + r.eval(&vals).unwrap()));
            }
        }
        assert_eq!(split_power(&y, 0), Some((0, 1, y.clone())));
        assert_eq!(split_power(&x.mul(&y), 0), None);
        assert_eq!(split_power(&x.mul(&x).add(&x), 0), None);
    }

    fn loop_with(update: Vec<Poly>) -> Transition {
        Transition {
            source: 0,
            targets: vec![(0, update)],
            guard: Vec::new(),
            cost: Poly::constant(1),
            temps: Vec::new(),
            com: false,
        }
    }

    #[test]
    fn groups_mutually_dependent_linear_updates() {
        // B' = 3B + 2C, C' = −5B − 3C, D' = D + A²: {B, C} grow together, A and D alone.
        let v = |i| Poly::var(i);
        let t = loop_with(vec![
            v(0).sub(&Poly::constant(1)),
            v(1).scale(3).add(&v(2).scale(2)),
            v(1).scale(-5).sub(&v(2).scale(3)),
            v(3).add(&v(0).mul(&v(0))),
        ]);
        let g = dependency_group(&[&t], 4, 1);
        assert_eq!(g, BTreeSet::from([1, 2]));
        assert_eq!(dependency_group(&[&t], 4, 3), BTreeSet::from([3]));
        // Column sums: |3| + |−5| = 8 for B, |2| + |−3| = 5 for C.
        let (f, rests) = group_step(&t, &g).unwrap();
        assert_eq!(f, 8);
        assert!(rests.iter().all(Poly::is_zero));
        // Brute force: S' ≤ 8·S on a grid of values.
        for b in -5..=5i128 {
            for c in -5..=5i128 {
                let s2 = (3 * b + 2 * c).abs() + (-5 * b - 3 * c).abs();
                assert!(s2 <= f * (b.abs() + c.abs()));
            }
        }
        let sq = loop_with(vec![v(0), v(1).mul(&v(2)), v(1), v(3)]);
        assert_eq!(group_step(&sq, &BTreeSet::from([1, 2])), None);
    }

    #[test]
    fn copies_keep_the_group_maximum() {
        // C' = D − 1, D' = A − 1 (A outside the group): M' ≤ M + |A − 1|, checked by
        // brute force; a sum of two group variables has no such form.
        let v = |i| Poly::var(i);
        let one = Poly::constant(1);
        let t = loop_with(vec![v(0), v(2).sub(&one), v(0).sub(&one)]);
        let g = BTreeSet::from([1, 2]);
        let (factor, rests) = group_max_step(&t, &g, &mut |_| false).unwrap();
        assert_eq!(factor, 1);
        for a in -4..=4i128 {
            for c in -4..=4i128 {
                for d in -4..=4i128 {
                    let vals = [a, c, d];
                    let m = c.abs().max(d.abs());
                    let m2 = (d - 1).abs().max((a - 1).abs());
                    let add = rests
                        .iter()
                        .map(|r| r.eval(&vals).unwrap().abs())
                        .max()
                        .unwrap();
                    assert!(m2 <= m + add);
                }
            }
        }
        // D' = C, C' = A: at most max(M, |A|), once.
        let reset = loop_with(vec![v(0), v(0), v(1)]);
        assert_eq!(
            group_max_step(&reset, &g, &mut |_| false),
            Some((0, vec![v(0), Poly::default()]))
        );
        let sum = loop_with(vec![v(0), v(1).add(&v(2)), v(2)]);
        assert_eq!(group_max_step(&sum, &g, &mut |_| false), None);
    }

    #[test]
    fn sums_double_the_group_maximum() {
        // C' = C + D − A, D' = D: M' ≤ 2·M + |A|, checked by brute force.
        let v = |i| Poly::var(i);
        let t = loop_with(vec![v(0), v(1).add(&v(2)).sub(&v(0)), v(2)]);
        let g = BTreeSet::from([1, 2]);
        let (factor, rests) = group_max_linear_step(&t, &g, &mut |_| false).unwrap();
        assert_eq!(factor, 2);
        for a in -4..=4i128 {
            for c in -4..=4i128 {
                for d in -4..=4i128 {
                    let vals = [a, c, d];
                    let m = c.abs().max(d.abs());
                    let m2 = (c + d - a).abs().max(d.abs());
                    let add = rests
                        .iter()
                        .map(|r| r.eval(&vals).unwrap().abs())
                        .max()
                        .unwrap();
                    assert!(m2 <= 2 * m + add);
                }
            }
        }
        let sq = loop_with(vec![v(0), v(1).mul(&v(2)), v(2)]);
        assert_eq!(group_max_linear_step(&sq, &g, &mut |_| false), None);
    }
}
