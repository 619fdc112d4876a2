//! Ratio ranking: loops whose guard keeps a quotient `f/g ≥ 1` of two linear functions (with
//! `g ≥ 1`) while every lap multiplies `g` by at least `c` and `f` by at most `d`, `c > d > 0`.
//! Lommen's `non_linear15`, `X1' = 2·X1, X2' = 3·X2` under `0 < X2 < X1`, is the example: no
//! linear (or polynomial) function ranks it — both values grow — but the quotient shrinks by the
//! factor `b = c/d` per lap, a multiplicative ranking function. After `k` laps of one stretch
//! `1 ≤ f/g ≤ f₀/(g₀·b^(k−1))` on the last of them, so `k ≤ 1 + log_b f₀` with `f₀` the value of `f`
//! after the stretch's entry (`g₀ ≥ 1`). With `q` the least integer such that `b^q ≥ 2`,
//! `log_b f₀ = q·log_{b^q} f₀ ≤ q·log₂ f₀ ≤ q·f₀`: the removal's bound per entry is `1 + q·f`, a
//! linear bound of a logarithmic number of laps.
//!
//! The facts per transition `t` (its guard entails each; one solver query each, [`check`]):
//! `g ≥ 1`, `f − g ≥ 0`, `d_t·f − f' ≥ 0` and `g' − c_t·g ≥ 0` (`f'`, `g'` after the update;
//! `f' < 0` only makes the quotient smaller). `b` is the least `c_t/d_t`. The bound holds per
//! stretch of consecutive laps, not per entry into the SCC (a stretch after a transition ranked
//! earlier starts anew), so the removal must cover every transition still to be ranked
//! ([`synthesize`] returns one only then) and its bound counts every entry into them, from inside
//! the SCC too.

use crate::its::{Its, Transition};
use crate::poly::Poly;
use crate::smt;
use symex_expr::Term;
use symex_solver::Solver;

/// A ratio removal: `num / den` shrinks by at least `base.0 / base.1` on every transition of
/// `factors` (`(transition, c, d)`: `den' ≥ c·den`, `num' ≤ d·num`) while the guards keep
/// `num ≥ den ≥ 1`; `laps` is the least `q` with `(base.0/base.1)^q ≥ 2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: Poly,
    pub den: Poly,
    pub factors: Vec<(usize, i128, i128)>,
    pub base: (i128, i128),
    pub laps: u32,
}

impl Ratio {
    /// `ratio ranking: (X1) / (X2) ≥ 1 shrinks by at least 3/2 per lap (t1: ·3 / ·2; …): at
    /// most 2*X1 + 1 laps per entry`, in `its`'s names.
    pub fn display(&self, its: &Its) -> String {
        let name = |v: usize| its.vars[v].clone();
        let laps: Vec<String> = self
            .factors
            .iter()
            .map(|(t, c, d)| format!("t{t}: ·{c} / ·{d}"))
            .collect();
        format!(
            "ratio ranking: ({}) / ({}) ≥ 1 shrinks by at least {}/{} per lap ({}): at most {} laps per entry",
            self.num.display(&name),
            self.den.display(&name),
            self.base.0,
            self.base.1,
            laps.join("; "),
            bound(self).display(&name)
        )
    }
}

/// The most laps `b^q ≥ 2` may need; ratios closer to 1 (or whose powers leave `i128`) are no
/// removal.
const MAX_LAPS: u32 = 64;

/// A ratio removal of every transition of `remaining` (one SCC), if one pair of variables
/// `num`, `den` of the guards has the module's facts on each, checked by `solver`.
pub fn synthesize(its: &Its, remaining: &[usize], solver: &mut dyn Solver) -> Option<Ratio> {
    let transitions: Vec<&Transition> = remaining.iter().map(|&i| &its.transitions[i]).collect();
    // Non-linear guards make each query a non-linear one that may take its whole time limit
    // (Lommen's `non_linear06`: `X4² − X3⁵ < 2·Y1 − Y2`), while the other provers still wait.
    if transitions.is_empty()
        || transitions
            .iter()
            .any(|t| t.targets.len() != 1 || t.guard.iter().any(|a| !a.poly.is_linear()))
    {
        return None;
    }
    for (num, den) in candidates(its, &transitions) {
        let mut factors = Vec::new();
        for &i in remaining {
            let t = &its.transitions[i];
            let Some((c, d)) = factor(t, num, den, solver) else {
                break;
            };
            factors.push((i, c, d));
        }
        if factors.len() != remaining.len() {
            continue;
        }
        // The least c/d: c₁/d₁ ≤ c₂/d₂ ⟺ c₁·d₂ ≤ c₂·d₁ (all positive).
        let base = factors
            .iter()
            .map(|&(_, c, d)| (c, d))
            .min_by(|a, b| (a.0 * b.1).cmp(&(b.0 * a.1)))?;
        let Some(laps) = laps(base) else { continue };
        return Some(Ratio {
            num: Poly::var(num),
            den: Poly::var(den),
            factors,
            base,
            laps,
        });
    }
    None
}

/// Pairs `(num, den)` of distinct variables that every transition's guard mentions, `den`
/// scaled by a variable or a constant of at least 2 in some update (the growth that makes
/// linear ranking fail) — a cheap filter before any query.
fn candidates(its: &Its, transitions: &[&Transition]) -> Vec<(usize, usize)> {
    let n = its.arity();
    let in_guards = |v: usize| {
        transitions
            .iter()
            .all(|t| t.guard.iter().any(|a| a.poly.vars().contains(&v)))
    };
    // `den` grows on some lap (a factor of at least 2, or a product with `den`), and `num`'s
    // update is `a·num`, `a ≥ 1`, on every lap.
    let scaled = |v: usize| {
        transitions.iter().any(|t| {
            let u = &t.update()[v];
            u.linear_coeff(v) >= 2 || (!u.is_linear() && u.vars().contains(&v))
        })
    };
    let multiplied = |v: usize| {
        transitions.iter().all(|t| {
            let u = &t.update()[v];
            let a = u.linear_coeff(v);
            a >= 1 && *u == Poly::var(v).scale(a)
        })
    };
    let mut out = Vec::new();
    for den in (0..n).filter(|&v| in_guards(v) && scaled(v)) {
        for num in (0..n).filter(|&v| v != den && in_guards(v) && multiplied(v)) {
            out.push((num, den));
        }
    }
    out
}

/// The factors `(c, d)` of `t` for `num / den`: `c` the largest candidate with
/// `den' ≥ c·den`, `d` the smallest with `num' ≤ d·num` (`c > d ≥ 1`), where the guard keeps
/// `num ≥ den ≥ 1`; else `None`.
fn factor(t: &Transition, num: usize, den: usize, solver: &mut dyn Solver) -> Option<(i128, i128)> {
    let mut cands: Vec<i128> = t
        .guard
        .iter()
        .flat_map(|a| {
            let mut cs: Vec<i128> = a.poly.terms().map(|(_, c)| c.abs()).collect();
            cs.push(a.poly.constant_term().abs());
            cs
        })
        .chain(
            t.update()
                .iter()
                .flat_map(|u| u.terms().map(|(_, c)| c.abs()).collect::<Vec<_>>()),
        )
        .chain([1, 2])
        .filter(|c| (1..=1024).contains(c))
        .collect();
    cands.sort_unstable();
    cands.dedup();
    let d = *cands
        .iter()
        .find(|&&d| check(t, num, den, d, true, solver))?;
    let c = *cands
        .iter()
        .rev()
        .find(|&&c| c > d && check(t, num, den, c, false, solver))?;
    // The first two facts (where `t` runs, `num ≥ den ≥ 1`).
    let v = |i: usize| smt::int_var("v", i);
    let guard = smt::guard_terms(&t.guard, &v);
    let (x, y) = (v(num), v(den));
    let fact = Term::int(1).ile(&y).and(&y.ile(&x));
    matches!(solver.must_be_true(&guard, &fact), Ok(true)).then_some((c, d))
}

/// Whether `t`'s guard entails `num' ≤ k·num` (`upper`) or `den' ≥ k·den`: one solver query.
pub fn check(
    t: &Transition,
    num: usize,
    den: usize,
    k: i128,
    upper: bool,
    solver: &mut dyn Solver,
) -> bool {
    let v = |i: usize| smt::int_var("v", i);
    let guard = smt::guard_terms(&t.guard, &v);
    let var = if upper { num } else { den };
    let before = v(var);
    let after = smt::poly_term(&t.update()[var], &v);
    let scaled = Term::int(k).imul(&before);
    let fact = if upper {
        after.ile(&scaled)
    } else {
        scaled.ile(&after)
    };
    matches!(solver.must_be_true(&guard, &fact), Ok(true))
}

/// The least `q ≤ MAX_LAPS` with `(c/d)^q ≥ 2`, i.e. `c^q ≥ 2·d^q`, in exact arithmetic.
fn laps((c, d): (i128, i128)) -> Option<u32> {
    if c <= d || d < 1 {
        return None;
    }
    let (mut cq, mut dq) = (c, d);
    for q in 1..=MAX_LAPS {
        if cq >= dq.checked_mul(2)? {
            return Some(q);
        }
        cq = cq.checked_mul(c)?;
        dq = dq.checked_mul(d)?;
    }
    None
}

/// `1 + q·num`, the removal's bound per entry into its transitions (the module's comment).
pub fn bound(r: &Ratio) -> Poly {
    Poly::constant(1).add(&r.num.scale(i128::from(r.laps)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_koat as parse;

    fn removal(rule: &str) -> Option<Ratio> {
        let its = parse(&format!(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR X Y T)\n(RULES\n  l0(X, Y) -> l1(X, Y)\n  {rule}\n)\n"
        ))
        .unwrap();
        let mut s = smt::counted_solver();
        synthesize(&its, &[1], s.as_mut())
    }

    #[test]
    fn a_temporary_factor_counts_by_its_guard() {
        let r =
            removal("l1(X, Y) -> l1(2*X, T*Y) :|: Y < X && Y > 0 && T >= 3").expect("a removal");
        assert_eq!(
            (r.num, r.den, r.base, r.laps),
            (Poly::var(0), Poly::var(1), (3, 2), 2)
        );
    }

    #[test]
    fn equal_factors_or_an_unbounded_factor_are_no_removal() {
        // X/Y stays the same: the loop runs forever from X = 2, Y = 1.
        assert_eq!(removal("l1(X, Y) -> l1(3*X, 3*Y) :|: Y < X && Y > 0"), None);
        // T may be 2, as large as X's factor.
        assert_eq!(
            removal("l1(X, Y) -> l1(2*X, T*Y) :|: Y < X && Y > 0 && T >= 2"),
            None
        );
        // Y may be 0: 0 < Y is not kept, and 0 · 3 stays 0 < X forever.
        assert_eq!(
            removal("l1(X, Y) -> l1(2*X, 3*Y) :|: Y < X && Y >= 0"),
            None
        );
    }

    #[test]
    fn laps_are_the_least_power_reaching_two() {
        assert_eq!(laps((3, 2)), Some(2));
        assert_eq!(laps((2, 1)), Some(1));
        // (9/8)^6 ≈ 2.03.
        assert_eq!(laps((9, 8)), Some(6));
        // 65^45 leaves i128: too close to 1 for exact powers, no removal.
        assert_eq!(laps((65, 64)), None);
        assert_eq!(laps((1, 1)), None);
    }
}
