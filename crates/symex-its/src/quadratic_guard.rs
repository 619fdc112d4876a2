//! Quadratic guards: loops that end because the value their guard keeps non-negative is, after
//! `k_t` uses of each transition `t`, at most a *negative definite quadratic form* in the counts.
//! FGPSF09's `poly2`, `A' = A + B, B' = B − 2, C' = C + 1` or `A' = A + C, C' = C − 2` while
//! `A ≥ 0`, is the example: `B + C` falls on every lap but is unbounded below, and no linear,
//! lexicographic or quadratic function ranks it (each transition raises what the other lowers),
//! yet every run ends after a number of laps linear in the start values.
//!
//! The facts. `g` is linear and every transition's guard entails `g ≥ 0`. The *counters* `v`
//! change by a constant on every transition (`v' = v + d_t(v)`), and `g` changes by a linear
//! function of the counters alone: `g' − g = Δ_t = a_t·v + c_t`. Along a stretch
//! `x₀ → x₁ → … → x_K` of these transitions the counters before step `i` are `v₀ + Σ_{j<i} d_{t_j}`,
//! so, with `k_t` the uses of `t` among the first `s = K − 1` steps,
//!
//! `0 ≤ g(x_s) = g(x₀) + Σ_t k_t·(Δ_t(x₀) − a_t·d_t/2) + ½·kᵀNk`,
//!
//! up to the order of the steps: `N_tt = a_t·d_t`, and a pair of different transitions `t, u`
//! contributes `a_u·d_t` for each use of `t` before one of `u` and `a_t·d_u` for the other order,
//! so `N_tu = max(a_u·d_t, a_t·d_u)` bounds it whatever the order. When `−m·N − 2·J` is positive
//! semidefinite (`J` all ones; checked exactly, [`positive_semidefinite`]) the form is at most
//! `−s²/m`, hence `s² ≤ m·g(x₀) + m·s·L` with `L = max_t (Δ_t(x₀) − a_t·d_t/2)⁺`, so
//! `s ≤ m·L + √(m·g(x₀)) ≤ m·(L + g(x₀)) + ¼` and every stretch has at most
//! `m·(|g| + Σ_t |Δ_t| + Σ_t |a_t·d_t|) + 1` laps ([`bound`], in absolute values of the values
//! after the stretch's entry).
//!
//! As for a ratio removal, the bound holds per stretch of consecutive laps (a transition ranked
//! earlier may start a stretch anew), so the removal must cover every transition still to be
//! ranked and its bound counts every entry into them, from inside the SCC too; and since it is a
//! bound in absolute values, not the value of a function that falls, it is only composed with
//! size bounds ([`crate::complexity`]), never with an upper bound of its value.

use crate::its::{Its, Rel, Transition};
use crate::poly::Poly;
use crate::scoped_flag::ScopedFlag;
use crate::smt;
use std::cell::Cell;
use symex_expr::Term;
use symex_solver::Solver;

/// A quadratic-guard removal: `guard ≥ 0` under every guard, changed on transition `t` by the
/// linear `Δ_t` of its `changes` (`(t, Δ_t, a_t·d_t)`), whose counts' form is at most `−s²/scale`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuadraticGuard {
    pub guard: Poly,
    pub changes: Vec<(usize, Poly, i128)>,
    pub scale: i128,
}

impl QuadraticGuard {
    /// `quadratic guard: A ≥ 0 changes by B (t0), C (t1) with counters that change by constants,
    /// …: at most 4*|A| + 4*|B| + 4*|C| + 17 laps per entry`, in `its`'s names.
    pub fn display(&self, its: &Its) -> String {
        let name = |v: usize| its.vars[v].clone();
        let changes: Vec<String> = self
            .changes
            .iter()
            .map(|(t, d, _)| format!("{} (t{t})", d.display(&name)))
            .collect();
        format!(
            "quadratic guard: {} ≥ 0 changes by {} with counters that change by constants, a negative definite form in the counts: at most {} laps per entry",
            self.guard.display(&name),
            changes.join(", "),
            bound(self).display(&|v| format!("|{}|", its.vars[v]))
        )
    }
}

thread_local! {
    /// Whether [`switched_off`] is in force on this thread.
    static OFF: Cell<bool> = const { Cell::new(false) };
}

/// Whether the rule is in force on this thread (it is unless [`switched_off`]).
pub fn in_force() -> bool {
    !OFF.with(Cell::get)
}

/// Keeps the rule out of the termination proofs on this thread while the guard lives: what
/// the prover finds without it (a test of a refinement whose example the rule also proves
/// directly, or of the rule's own need).
pub fn switched_off() -> ScopedFlag {
    ScopedFlag::set(&OFF)
}

/// The transitions' counts beyond which the exact check is not tried (the matrix is
/// `remaining.len()` square).
const MAX_TRANSITIONS: usize = 8;

/// The scales `m` tried: the form must be at most `−s²/m`.
const SCALES: [i128; 7] = [1, 2, 4, 8, 16, 32, 64];

/// A quadratic-guard removal of all of `remaining`, or `None`. One solver query per transition
/// and candidate whose guard does not contain `g ≥ 0` itself.
pub fn synthesize(
    its: &Its,
    remaining: &[usize],
    solver: &mut dyn Solver,
) -> Option<QuadraticGuard> {
    let transitions: Vec<&Transition> = remaining.iter().map(|&i| &its.transitions[i]).collect();
    if !in_force()
        || transitions.is_empty()
        || transitions.len() > MAX_TRANSITIONS
        || transitions.iter().any(|t| t.targets.len() != 1)
    {
        return None;
    }
    let steps: Vec<Vec<Option<i128>>> = transitions
        .iter()
        .map(|t| {
            (0..its.arity())
                .map(|v| t.update()[v].sub(&Poly::var(v)).as_constant())
                .collect()
        })
        .collect();
    let counter = |v: usize| v < its.arity() && steps.iter().all(|s| s[v].is_some());
    for g in candidates(transitions[0], its.arity()) {
        let Some(changes) = changes(&transitions, &g, &counter) else {
            continue;
        };
        if !transitions.iter().all(|t| keeps(t, &g, solver)) {
            continue;
        }
        let n = form(&changes, &steps);
        let Some(scale) = SCALES.iter().copied().find(|&m| definite(&n, m)) else {
            continue;
        };
        let changes = remaining
            .iter()
            .zip(&changes)
            .zip(n.iter().enumerate())
            .map(|((&i, d), (k, row))| (i, d.clone(), row[k]))
            .collect();
        return Some(QuadraticGuard {
            guard: g,
            changes,
            scale,
        });
    }
    None
}

/// The linear, non-constant `p` over program variables (below `arity`; no temporaries) of the
/// first transition's `p ≥ 0` (and both sides of its equations): the only functions every guard
/// can keep non-negative that need no invention.
fn candidates(t: &Transition, arity: usize) -> Vec<Poly> {
    let mut out = Vec::new();
    for a in &t.guard {
        if !a.poly.is_linear()
            || a.poly.as_constant().is_some()
            || a.poly.vars().into_iter().any(|v| v >= arity)
        {
            continue;
        }
        match a.rel {
            Rel::Ge => out.push(a.poly.clone()),
            Rel::Eq => out.extend([a.poly.clone(), a.poly.scale(-1)]),
            Rel::Ne => {}
        }
    }
    out
}

/// `Δ_t = g(update_t) − g` for each transition when each is linear in the counters alone.
fn changes(
    transitions: &[&Transition],
    g: &Poly,
    counter: &dyn Fn(usize) -> bool,
) -> Option<Vec<Poly>> {
    transitions
        .iter()
        .map(|t| {
            let d = g.substitute(&|v| t.update()[v].clone()).sub(g);
            (d.is_linear() && d.vars().into_iter().all(counter)).then_some(d)
        })
        .collect()
}

/// Whether `t`'s guard entails `g ≥ 0`: at once when it holds `g + c ≥ 0` or `g + c = 0` with
/// `c ≤ 0`, else by one solver query.
fn keeps(t: &Transition, g: &Poly, solver: &mut dyn Solver) -> bool {
    let implied = t
        .guard
        .iter()
        .any(|a| a.rel != Rel::Ne && a.poly.sub(g).as_constant().is_some_and(|c| c <= 0));
    if implied {
        return true;
    }
    if t.guard.iter().any(|a| !a.poly.is_linear()) {
        return false;
    }
    let v = |i: usize| smt::int_var("v", i);
    let guard = smt::guard_terms(&t.guard, &v);
    let holds = Term::int(0).ile(&smt::poly_term(g, &v));
    matches!(solver.must_be_true(&guard, &holds), Ok(true))
}

/// `N`: `N_tt = a_t·d_t`, `N_tu = max(a_u·d_t, a_t·d_u)` (`a_t` the counters' coefficients in
/// `Δ_t`, `d_t` their constant steps on `t`). Saturating: a huge entry only fails the check.
fn form(changes: &[Poly], steps: &[Vec<Option<i128>>]) -> Vec<Vec<i128>> {
    let dot = |a: &Poly, d: &[Option<i128>]| -> i128 {
        a.vars().into_iter().fold(0i128, |acc, v| {
            acc.saturating_add(a.linear_coeff(v).saturating_mul(d[v].unwrap_or(0)))
        })
    };
    let n = changes.len();
    let mut m = vec![vec![0i128; n]; n];
    for t in 0..n {
        for u in 0..n {
            m[t][u] = if t == u {
                dot(&changes[t], &steps[t])
            } else {
                dot(&changes[u], &steps[t]).max(dot(&changes[t], &steps[u]))
            };
        }
    }
    m
}

/// Whether `−m·N − 2·J` is positive semidefinite: `kᵀNk ≤ −2·s²/m` for every `k`.
fn definite(n: &[Vec<i128>], m: i128) -> bool {
    let q: Option<Vec<Vec<i128>>> = n
        .iter()
        .map(|row| {
            row.iter()
                .map(|&x| x.checked_mul(-m)?.checked_sub(2))
                .collect()
        })
        .collect();
    q.is_some_and(positive_semidefinite)
}

/// Whether the symmetric integer matrix `q` is positive semidefinite, by fraction-free
/// elimination: a positive pivot scales the Schur complement by a positive factor, which keeps
/// its definiteness; a zero pivot needs a zero row. Exact; `false` on overflow.
pub fn positive_semidefinite(mut q: Vec<Vec<i128>>) -> bool {
    let n = q.len();
    for k in 0..n {
        let p = q[k][k];
        if p < 0 {
            return false;
        }
        if p == 0 {
            if q[k][k + 1..].iter().any(|&x| x != 0) {
                return false;
            }
            continue;
        }
        for i in k + 1..n {
            for j in k + 1..n {
                let Some(x) = q[i][j]
                    .checked_mul(p)
                    .and_then(|x| x.checked_sub(q[i][k].checked_mul(q[k][j])?))
                else {
                    return false;
                };
                q[i][j] = x;
            }
        }
    }
    true
}

/// The removal's bound per entry, in absolute values of the values after the entry:
/// `m·(|g| + Σ_t |Δ_t| + Σ_t |a_t·d_t|) + 1` (the coefficients' absolute values, so that composed
/// with size bounds it bounds the laps).
pub fn bound(q: &QuadraticGuard) -> Poly {
    let mut sum = q.guard.abs_coeffs();
    for (_, d, ad) in &q.changes {
        sum = sum.add(&d.abs_coeffs()).add(&Poly::constant(ad.abs()));
    }
    sum.scale(q.scale).add(&Poly::constant(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exact_check_tells_semidefinite_from_indefinite() {
        assert!(positive_semidefinite(vec![vec![2, -2], vec![-2, 2]]));
        assert!(positive_semidefinite(vec![vec![0, 0], vec![0, 3]]));
        assert!(!positive_semidefinite(vec![vec![1, 2], vec![2, 1]]));
        assert!(!positive_semidefinite(vec![vec![0, 1], vec![1, 5]]));
        assert!(!positive_semidefinite(vec![vec![-1]]));
    }

    #[test]
    fn poly2s_counts_form_needs_the_scale_four() {
        // N = [[−2, 1], [1, −2]]: −m·N − 2·J = [[2m − 2, −m − 2], [−m − 2, 2m − 2]], PSD from m = 4.
        let n = vec![vec![-2, 1], vec![1, -2]];
        assert!(!definite(&n, 2));
        assert!(definite(&n, 4));
        // A counter that grows where it is added (`A' = A + B, B' = B + 1`) is no such form.
        assert!(!SCALES.iter().any(|&m| definite(&[vec![1]], m)));
    }
}
