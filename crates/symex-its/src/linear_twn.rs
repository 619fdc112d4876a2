//! Loops that are twn after a linear change of variables (Lommen, Meyer & Giesl's
//! non-linear benchmarks; Frohn, Hark & Giesl transform loops to twn form by automorphisms,
//! here only linear ones): `X1' = 4·X1 − X2, X2' = 2·X1 + X2` is not triangular, but in
//! `p = X1 − X2`, `q = X2 − 2·X1` it reads `p' = 2p, q' = 3q`.
//!
//! The variables `W` the guards depend on (closed under the update) have an update
//! `x' = M·x + N(x)`, `M` its linear part. When `M` is diagonalisable over ℚ with integer
//! eigenvalues, left eigenvectors (`t·M = λ·t`) form a basis `T`, and the new variables
//! `y = T·x` have `y_i' = λ_i·y_i + t_i·N(T⁻¹·y)`: a diagonal linear part, and non-linear
//! parts that often use other new variables only (`2·Y1 − Y2` gets `3·(2·Y1 − Y2) + X3²`
//! when `Y1' = Y1 + Y1² + X3²`, `Y2' = 3·Y2 − 4·Y1 + 2·Y1² + X3²`: the `Y1²` cancel).
//! Within an eigenspace the basis prefers what the guards use (the component of each
//! guard's linear part in that eigenspace, then variables of non-linear monomials), so that
//! the guards need few new variables (`Y1 + 2·Y2` doubles while `Y1` alone squares). The
//! loop in `y` goes to [`twn::analyse`]; its bound in the `|y_i|` is one in the `|x|` by
//! `|y_i| ≤ Σ_j |T_ij|·|x_j|`.
//!
//! When that fails (complex eigenvalues: `B' = 3B − 4C, C' = 4B − 3C` turns, but
//! `M² = −7·I`), the loop unrolled twice is tried, as it is and changed: at most `2·N + 1`
//! steps for `N` steps of the unrolled loop (each pair of steps is one of it).

use crate::closed_form;
use crate::its::{Atom, Its, Transition};
use crate::poly::Poly;
use crate::twn::{self, TwnLoop};
use std::collections::BTreeSet;
use symex_solver::Solver;

type Matrix = Vec<Vec<i128>>;

/// Eigenvalues are searched in `−R..=R` for the row-sum norm `R`, at most this.
const MAX_EIGENVALUE: i128 = 256;

/// The twn loop of the self-loops `ts` at `location` (one update, which [`twn::analyse`]
/// rejected) after a change of variables or unrolling; `None` without one.
pub fn analyse(
    its: &Its,
    location: usize,
    ts: &[usize],
    solver: &mut dyn Solver,
) -> Option<TwnLoop> {
    let loops: Vec<Transition> = ts.iter().map(|&i| its.transitions[i].clone()).collect();
    if let Some(l) = changed(its, location, &loops, solver) {
        return Some(TwnLoop {
            transitions: ts.to_vec(),
            ..l
        });
    }
    let twice = unrolled(its.arity(), &loops)?;
    let l =
        alone(its, location, &twice, solver).or_else(|| changed(its, location, &twice, solver))?;
    let bound = l.bound.checked_scale(2)?.checked_add(&Poly::constant(1))?;
    Some(TwnLoop {
        transitions: ts.to_vec(),
        bound,
        unrolled: true,
        ..l
    })
}

/// [`twn::analyse`] on an ITS of the transitions `loops` alone.
fn alone(
    its: &Its,
    location: usize,
    loops: &[Transition],
    solver: &mut dyn Solver,
) -> Option<TwnLoop> {
    let mini = Its {
        transitions: loops.to_vec(),
        ..its.clone()
    };
    let ts: Vec<usize> = (0..loops.len()).collect();
    twn::analyse(&mini, location, &ts, solver)
}

/// The loop after the change of variables to a basis of left eigenvectors, with its bound
/// in the old variables.
fn changed(
    its: &Its,
    location: usize,
    loops: &[Transition],
    solver: &mut dyn Solver,
) -> Option<TwnLoop> {
    let n = its.arity();
    let update = common_update(loops)?;
    let guard_vars: BTreeSet<usize> = loops
        .iter()
        .flat_map(|t| &t.guard)
        .flat_map(|a| a.poly.vars())
        .filter(|&v| v < n)
        .collect();
    let w: Vec<usize> = closed_form::closure(&update, n, &guard_vars)?
        .into_iter()
        .collect();
    let m: Matrix = w
        .iter()
        .map(|&v| w.iter().map(|&u| update[v].linear_coeff(u)).collect())
        .collect();
    let t = eigenbasis(&m, &preferred(loops, &update, &w))?;
    // Only the old variables (maybe negated): nothing [`twn::analyse`] has not seen.
    if t.iter()
        .all(|row| row.iter().filter(|c| **c != 0).count() == 1)
    {
        return None;
    }
    let (d, inv) = inverse(&t)?;
    let var_at = |j: usize| Poly::var(w[j]);
    let x_of_y: Vec<Poly> = inv.iter().map(|row| linear(row, &var_at)).collect();
    let in_w = |v: usize| w.iter().position(|&u| u == v);
    let fresh = n + loops.iter().map(|t| t.temps.len()).max().unwrap_or(0);
    // The new update: `y_i' = t_i·u(x)` at `x = T⁻¹·y`, where it is integral (else a
    // fresh temporary: the twn analysis fails if it needs that variable); the variables
    // outside `W` keep their values (no guard depends on them).
    let mut new_update: Vec<Poly> = (0..n).map(Poly::var).collect();
    let mut uses_fresh = false;
    for (i, &v) in w.iter().enumerate() {
        let mut q = Poly::default();
        for (j, &u) in w.iter().enumerate() {
            q = q.checked_add(&update[u].checked_scale(t[i][j])?)?;
        }
        let (p, scale) = rewrite(&q, &in_w, &x_of_y, d)?;
        new_update[v] = divide_exact(&p, scale).unwrap_or_else(|| {
            uses_fresh = true;
            Poly::var(fresh)
        });
    }
    let mut new_loops = Vec::new();
    for tr in loops {
        let mut guard = Vec::new();
        for a in &tr.guard {
            // `D^k·p(T⁻¹·y)`: the same sign as `p(x)`.
            let (poly, _) = rewrite(&a.poly, &in_w, &x_of_y, d)?;
            guard.push(Atom { poly, rel: a.rel });
        }
        let mut temps = tr.temps.clone();
        if uses_fresh {
            temps.resize(fresh - n, "_".to_string());
            temps.push("_nonintegral".to_string());
        }
        new_loops.push(Transition {
            guard,
            targets: vec![(location, new_update.clone())],
            temps,
            ..tr.clone()
        });
    }
    let l = alone(its, location, &new_loops, solver)?;
    let abs_forms: Vec<Poly> = t
        .iter()
        .map(|row| linear(&row.iter().map(|c| c.abs()).collect::<Vec<_>>(), &var_at))
        .collect();
    let bound = checked_substitute(&l.bound, &|v| match in_w(v) {
        Some(i) => abs_forms[i].clone(),
        None => Poly::var(v),
    })?;
    let change = w
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, linear(&t[i], &var_at)))
        .collect();
    Some(TwnLoop { bound, change, ..l })
}

/// The update all of `loops` share (single targets), or `None`.
fn common_update(loops: &[Transition]) -> Option<Vec<Poly>> {
    let first = loops.first()?;
    if loops
        .iter()
        .any(|t| t.targets.len() != 1 || t.update() != first.update())
    {
        return None;
    }
    Some(first.update().to_vec())
}

/// Two steps of `loops` in a row, one transition per pair: the first's guard and the
/// second's after the update, the update applied twice. `None` with temporaries (each step
/// would choose its own).
fn unrolled(n: usize, loops: &[Transition]) -> Option<Vec<Transition>> {
    let update = common_update(loops)?;
    if loops.iter().any(|t| !t.temps.is_empty()) {
        return None;
    }
    let step = |p: &Poly| checked_substitute(p, &|w| update[w].clone());
    let twice: Vec<Poly> = update.iter().map(step).collect::<Option<_>>()?;
    debug_assert_eq!(twice.len(), n);
    let mut out = Vec::new();
    for a in loops {
        for b in loops {
            let mut guard = a.guard.clone();
            for atom in &b.guard {
                guard.push(Atom {
                    poly: step(&atom.poly)?,
                    rel: atom.rel,
                });
            }
            out.push(Transition {
                guard,
                targets: vec![(a.target(), twice.clone())],
                ..a.clone()
            });
        }
    }
    Some(out)
}

/// Vectors over `W` the basis should contain where it can: the linear part of each guard
/// atom, then the variables of the guards' non-linear monomials, then those of the
/// updates'.
fn preferred(loops: &[Transition], update: &[Poly], w: &[usize]) -> Matrix {
    let mut out: Matrix = Vec::new();
    for a in loops.iter().flat_map(|t| &t.guard) {
        let lin: Vec<i128> = w.iter().map(|&v| a.poly.linear_coeff(v)).collect();
        if lin.iter().any(|c| *c != 0) {
            out.push(lin);
        }
    }
    let nonlinear_vars = |p: &Poly| -> Vec<usize> {
        p.terms()
            .filter(|(m, _)| m.iter().map(|(_, e)| e).sum::<u32>() >= 2)
            .flat_map(|(m, _)| m.iter().map(|(v, _)| *v))
            .collect()
    };
    let guard_polys = loops.iter().flat_map(|t| &t.guard).map(|a| &a.poly);
    let update_polys = w.iter().map(|&v| &update[v]);
    for p in guard_polys.chain(update_polys) {
        for v in nonlinear_vars(p) {
            if let Some(i) = w.iter().position(|&u| u == v) {
                let mut unit = vec![0; w.len()];
                unit[i] = 1;
                out.push(unit);
            }
        }
    }
    out
}

/// A basis of left eigenvectors of `m` (rows, primitive integer vectors) when `m` is
/// diagonalisable with integer eigenvalues: per eigenspace, the components of `preferred`
/// there first (`a·Π_{μ≠λ}(M − μ·I)` is `a`'s component for `λ`, scaled), then vectors of
/// its null space. Rows that are unit vectors `e_j` are put at position `j`.
fn eigenbasis(m: &Matrix, preferred: &Matrix) -> Option<Matrix> {
    let k = m.len();
    if k == 0 {
        return None;
    }
    let mut r: i128 = 0;
    for row in m {
        let mut s: i128 = 0;
        for c in row {
            s = s.checked_add(c.checked_abs()?)?;
        }
        r = r.max(s);
    }
    if r > MAX_EIGENVALUE {
        return None;
    }
    let mut spaces: Vec<(i128, Matrix)> = Vec::new();
    let mut dims = 0;
    for lambda in -r..=r {
        // Left eigenvectors: the null space of (M − λ·I)ᵀ.
        let shifted = minus_identity(m, lambda)?;
        let transposed: Matrix = (0..k)
            .map(|j| (0..k).map(|i| shifted[i][j]).collect())
            .collect();
        let ns = nullspace(&transposed)?;
        if !ns.is_empty() {
            dims += ns.len();
            spaces.push((lambda, ns));
        }
        if dims == k {
            break;
        }
    }
    if dims < k {
        return None;
    }
    let mut basis: Matrix = Vec::new();
    for (lambda, ns) in &spaces {
        let mut chosen: Matrix = Vec::new();
        let candidates = preferred
            .iter()
            .map(|a| component(m, &spaces, *lambda, a))
            .collect::<Option<Vec<_>>>()?;
        for c in candidates.into_iter().chain(ns.iter().cloned()) {
            if chosen.len() == ns.len() {
                break;
            }
            if c.iter().all(|x| *x == 0) {
                continue;
            }
            let mut with = chosen.clone();
            with.push(c.clone());
            if rank(&with)? == with.len() {
                chosen.push(c);
            }
        }
        basis.extend(chosen);
    }
    Some(units_in_place(basis))
}

/// `a·Π_{μ≠λ}(M − μ·I)` over the other eigenvalues, primitive.
fn component(m: &Matrix, spaces: &[(i128, Matrix)], lambda: i128, a: &[i128]) -> Option<Vec<i128>> {
    let mut c = a.to_vec();
    for (mu, _) in spaces {
        if *mu == lambda {
            continue;
        }
        let shifted = minus_identity(m, *mu)?;
        let mut next = vec![0i128; c.len()];
        for (j, slot) in next.iter_mut().enumerate() {
            for (i, ci) in c.iter().enumerate() {
                *slot = slot.checked_add(ci.checked_mul(shifted[i][j])?)?;
            }
        }
        c = primitive(next);
    }
    Some(c)
}

/// Rows `±e_j` moved to position `j` (so the new variable keeps the old one's name), the
/// others in the free positions in order.
fn units_in_place(basis: Matrix) -> Matrix {
    let k = basis.len();
    let mut out: Vec<Option<Vec<i128>>> = vec![None; k];
    let mut rest = Vec::new();
    for row in basis {
        let nonzero: Vec<usize> = (0..k).filter(|&j| row[j] != 0).collect();
        match nonzero[..] {
            [j] if out[j].is_none() => out[j] = Some(row),
            _ => rest.push(row),
        }
    }
    let mut rest = rest.into_iter();
    out.into_iter()
        .map(|r| r.unwrap_or_else(|| rest.next().unwrap_or_default()))
        .collect()
}

fn minus_identity(m: &Matrix, lambda: i128) -> Option<Matrix> {
    let mut out = m.clone();
    for (i, row) in out.iter_mut().enumerate() {
        row[i] = row[i].checked_sub(lambda)?;
    }
    Some(out)
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The vector divided by the gcd of its entries, its first non-zero entry positive.
fn primitive(mut v: Vec<i128>) -> Vec<i128> {
    let g = v.iter().fold(0, |g, x| gcd(g, *x));
    let sign = v.iter().find(|x| **x != 0).map_or(1, |x| x.signum());
    if g > 0 {
        for x in &mut v {
            *x = *x / g * sign;
        }
    }
    v
}

/// Fraction-free Gauss–Jordan elimination: the reduced rows (each pivot column zero in
/// the other rows) and the pivot columns; `None` on overflow.
fn echelon(a: &Matrix) -> Option<(Matrix, Vec<usize>)> {
    let mut a = a.clone();
    let rows = a.len();
    let cols = a.first().map_or(0, |r| r.len());
    let mut pivots = Vec::new();
    for c in 0..cols {
        let r = pivots.len();
        let Some(p) = (r..rows).find(|&i| a[i][c] != 0) else {
            continue;
        };
        a.swap(r, p);
        for i in 0..rows {
            if i == r || a[i][c] == 0 {
                continue;
            }
            let (f, g) = (a[r][c], a[i][c]);
            let row = a[i]
                .iter()
                .zip(&a[r])
                .map(|(x, y)| f.checked_mul(*x)?.checked_sub(g.checked_mul(*y)?))
                .collect::<Option<Vec<_>>>()?;
            a[i] = primitive(row);
        }
        pivots.push(c);
    }
    Some((a, pivots))
}

fn rank(a: &Matrix) -> Option<usize> {
    Some(echelon(a)?.1.len())
}

/// A basis of `{x : a·x = 0}` (primitive integer vectors).
fn nullspace(a: &Matrix) -> Option<Matrix> {
    let cols = a.first().map_or(0, |r| r.len());
    let (e, pivots) = echelon(a)?;
    let mut lcm: i128 = 1;
    for (i, &p) in pivots.iter().enumerate() {
        let x = e[i][p].abs();
        lcm = (lcm / gcd(lcm, x)).checked_mul(x)?;
    }
    let mut out = Vec::new();
    for f in (0..cols).filter(|c| !pivots.contains(c)) {
        // x_f = lcm, the other free variables 0: row i reads e_ip·x_p + e_if·lcm = 0.
        let mut x = vec![0i128; cols];
        x[f] = lcm;
        for (i, &p) in pivots.iter().enumerate() {
            x[p] = -(e[i][f].checked_mul(lcm / e[i][p])?);
        }
        out.push(primitive(x));
    }
    Some(out)
}

/// `T⁻¹` as `(D, R)` with `x_i = (Σ_j R_ij·y_j) / D` for `y = T·x`; `None` if `T` is
/// singular or on overflow.
fn inverse(t: &Matrix) -> Option<(i128, Matrix)> {
    let k = t.len();
    // [T | I]: row i says t_i·x = y_i; after elimination, e_ii·x_i = Σ_j e_i,k+j·y_j.
    let augmented: Matrix = t
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..k).map(|j| i128::from(i == j)));
            r
        })
        .collect();
    let (e, pivots) = echelon(&augmented)?;
    if pivots.len() < k || pivots[..k].iter().enumerate().any(|(i, &p)| p != i) {
        return None;
    }
    let mut d: i128 = 1;
    for (i, row) in e.iter().enumerate() {
        let x = row[i].abs();
        d = (d / gcd(d, x)).checked_mul(x)?;
    }
    let mut r = Vec::new();
    for (i, row) in e.iter().enumerate() {
        let f = d / row[i];
        r.push(
            row[k..]
                .iter()
                .map(|c| c.checked_mul(f))
                .collect::<Option<Vec<_>>>()?,
        );
    }
    Some((d, r))
}

/// `Σ_j c_j·var(j)`.
fn linear(c: &[i128], var: &dyn Fn(usize) -> Poly) -> Poly {
    let mut p = Poly::default();
    for (j, cj) in c.iter().enumerate() {
        if *cj != 0 {
            p = p.add(&var(j).scale(*cj));
        }
    }
    p
}

/// `(D^k·p(x), D^k)` with `x_v = x_of_y[i] / D` for `v` the `i`-th variable of `W`
/// (`in_w`), other variables unchanged, `k` the largest degree in `W`'s variables.
fn rewrite(
    p: &Poly,
    in_w: &dyn Fn(usize) -> Option<usize>,
    x_of_y: &[Poly],
    d: i128,
) -> Option<(Poly, i128)> {
    let degree_in_w = |m: &crate::poly::Monomial| -> u32 {
        m.iter()
            .filter(|(v, _)| in_w(*v).is_some())
            .map(|(_, e)| *e)
            .sum()
    };
    let top = p.terms().map(|(m, _)| degree_in_w(m)).max().unwrap_or(0);
    let mut out = Poly::default();
    for (m, c) in p.terms() {
        let mut prod = Poly::constant(c.checked_mul(d.checked_pow(top - degree_in_w(m))?)?);
        for &(v, e) in m {
            let f = in_w(v).map_or_else(|| Poly::var(v), |i| x_of_y[i].clone());
            for _ in 0..e {
                prod = prod.checked_mul(&f)?;
            }
        }
        out = out.checked_add(&prod)?;
    }
    Some((out, d.checked_pow(top)?))
}

/// `p / s` when `s` divides every coefficient.
fn divide_exact(p: &Poly, s: i128) -> Option<Poly> {
    let mut out = Poly::default();
    for (m, c) in p.terms() {
        if c % s != 0 {
            return None;
        }
        let mut term = Poly::constant(c / s);
        for &(v, e) in m {
            term = term.mul(&Poly::var(v).pow(e));
        }
        out = out.add(&term);
    }
    Some(out)
}

/// [`Poly::substitute`] with overflow checks.
fn checked_substitute(p: &Poly, f: &dyn Fn(usize) -> Poly) -> Option<Poly> {
    let mut out = Poly::default();
    for (m, c) in p.terms() {
        let mut prod = Poly::constant(c);
        for &(v, e) in m {
            let fv = f(v);
            for _ in 0..e {
                prod = prod.checked_mul(&fv)?;
            }
        }
        out = out.checked_add(&prod)?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `basis·M = diag(λ)·basis`, checked by multiplying out.
    fn is_eigenbasis(m: &Matrix, basis: &Matrix) -> bool {
        let k = m.len();
        basis.iter().all(|t| {
            let tm: Vec<i128> = (0..k)
                .map(|j| (0..k).map(|i| t[i] * m[i][j]).sum())
                .collect();
            let i = t.iter().position(|x| *x != 0).unwrap();
            let lambda = tm[i] / t[i];
            tm.iter().zip(t).all(|(a, b)| *a == lambda * b)
        }) && rank(basis) == Some(k)
    }

    #[test]
    fn eigenbasis_of_a_real_diagonalisable_matrix() {
        // non_linear05: X1' = 4X1 − X2, X2' = 2X1 + X2 (rows: the update of each variable).
        let m = vec![vec![4, -1], vec![2, 1]];
        let b = eigenbasis(&m, &vec![]).unwrap();
        assert!(is_eigenbasis(&m, &b), "{b:?}");
        // The preferred guard form Y1 + 2·Y2 in the eigenspace of 2 of diag(2, 2, 4).
        let m = vec![vec![2, 0, 0], vec![0, 2, 0], vec![0, 0, 4]];
        let b = eigenbasis(&m, &vec![vec![1, 2, -1]]).unwrap();
        assert!(is_eigenbasis(&m, &b), "{b:?}");
        assert!(b.contains(&vec![1, 2, 0]), "{b:?}");
    }

    #[test]
    fn no_eigenbasis_for_rotations_and_jordan_blocks() {
        // B' = 3B − 4C, C' = 4B − 3C (eigenvalues ±i·√7); X' = X + Y, Y' = Y.
        assert!(eigenbasis(&vec![vec![3, -4], vec![4, -3]], &vec![]).is_none());
        assert!(eigenbasis(&vec![vec![1, 1], vec![0, 1]], &vec![]).is_none());
    }

    #[test]
    fn inverse_times_matrix_is_identity() {
        for t in [
            vec![vec![1, -1], vec![-2, 1]],
            vec![vec![1, -1, 0], vec![1, 1, 0], vec![0, 3, 2]],
        ] {
            let (d, r) = inverse(&t).unwrap();
            let k = t.len();
            for (i, ri) in r.iter().enumerate() {
                for j in 0..k {
                    let s: i128 = (0..k).map(|l| ri[l] * t[l][j]).sum();
                    assert_eq!(s, if i == j { d } else { 0 }, "{t:?}");
                }
            }
        }
        assert!(inverse(&vec![vec![1, 2], vec![2, 4]]).is_none());
    }
}
