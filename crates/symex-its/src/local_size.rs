//! Local size bounds of temporaries: a temporary is chosen anew on each step, and only the
//! guard limits it. We try `|T| ≤ c·(Σ_{w∈W} |x_w| + K)` with `W` the program variables of
//! the guard atoms that mention `T` and `K` the sum of their constants, and keep it when Z3
//! proves it valid under the guard.

use crate::bound::Bound;
use crate::its::{Atom, Rel, Transition};
use crate::poly::Poly;
use crate::smt;
use std::collections::BTreeSet;
use symex_expr::Term;
use symex_solver::Solver;

/// A proved bound `c·(Σ_{w∈W} |x_w| + K)` of temporary `temp` (a variable index) of `t`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TempBound {
    /// The program variables `W`.
    pub vars: Vec<usize>,
    /// `K`.
    pub constant: i128,
    /// `c`.
    pub factor: i128,
}

impl TempBound {
    /// The bound with `|x_w|` bounded by `size(w)`.
    pub fn compose(&self, size: &mut dyn FnMut(usize) -> Bound) -> Bound {
        let mut s = Bound::constant(self.constant);
        for &w in &self.vars {
            s = s.add(&size(w));
        }
        Bound::constant(self.factor).mul(&s)
    }
}

/// Finds a bound of temporary `temp` of `t` (program variables are `0..n`).
pub fn temp_bound(
    solver: &mut dyn Solver,
    t: &Transition,
    n: usize,
    temp: usize,
) -> Option<TempBound> {
    let atoms: Vec<_> = t
        .guard
        .iter()
        .filter(|a| a.poly.vars().contains(&temp))
        .collect();
    if atoms.is_empty() {
        return None;
    }
    let mut vars: Vec<usize> = atoms
        .iter()
        .flat_map(|a| a.poly.vars())
        .filter(|v| *v < n)
        .collect();
    vars.sort_unstable();
    vars.dedup();
    let constant: i128 = atoms.iter().map(|a| a.poly.constant_term().abs()).sum();
    let max_coeff = atoms
        .iter()
        .flat_map(|a| a.poly.terms().map(|(_, c)| c.abs()))
        .max()
        .unwrap_or(1);
    let var = |v: usize| smt::int_var("v", v);
    let guard = smt::guard_terms(&t.guard, &var);
    let sum = vars
        .iter()
        .fold(Term::int(constant), |acc, w| acc.iadd(&smt::abs(&var(*w))));
    let mut factors = vec![1];
    if max_coeff > 1 {
        factors.push(max_coeff);
    }
    for factor in factors {
        let s = Term::int(factor).imul(&sum);
        let x = smt::poly_term(&Poly::var(temp), &var);
        let cond = x.ile(&s).and(&x.ineg().ile(&s));
        if matches!(solver.must_be_true(&guard, &cond), Ok(true)) {
            return Some(TempBound {
                vars: vars.clone(),
                constant,
                factor,
            });
        }
    }
    None
}

/// The guard atoms of `t` (but `≠`) that mention one of `vars`: what bounds those variables there.
pub(crate) fn atoms_on<'a>(t: &'a Transition, vars: &BTreeSet<usize>) -> Vec<&'a Atom> {
    t.guard
        .iter()
        .filter(|a| a.rel != Rel::Ne && a.poly.vars().iter().any(|w| vars.contains(w)))
        .collect()
}

/// A bound of the new value `p` of variable `v` on `t` that the guard gives without `v`:
/// `|p| ≤ c·(Σ_{w∈W} |x_w| + K)` with `W` the other program variables of the guard atoms
/// that mention `p`'s variables and `K` the sum of their constants and `p`'s, proved by Z3
/// (`D' = D + 1` under `0 ≤ D ≤ B`: `|D'| ≤ |B| + 1`). Such a step acts like a reset to
/// that bound: it needs no runtime bound, which breaks cycles between runtime and size
/// bounds.
pub fn update_bound(
    solver: &mut dyn Solver,
    t: &Transition,
    n: usize,
    v: usize,
    p: &Poly,
) -> Option<TempBound> {
    let pvars = p.vars();
    let atoms = atoms_on(t, &pvars);
    if atoms.is_empty() {
        return None;
    }
    let mut vars: Vec<usize> = atoms
        .iter()
        .flat_map(|a| a.poly.vars())
        .filter(|w| *w < n && *w != v)
        .collect();
    vars.sort_unstable();
    vars.dedup();
    let constant: i128 = atoms
        .iter()
        .map(|a| a.poly.constant_term().abs())
        .sum::<i128>()
        + p.constant_term().abs();
    let max_coeff = atoms
        .iter()
        .flat_map(|a| a.poly.terms().map(|(_, c)| c.abs()))
        .chain(p.terms().map(|(_, c)| c.abs()))
        .max()
        .unwrap_or(1);
    let var = |w: usize| smt::int_var("v", w);
    let guard = smt::guard_terms(&t.guard, &var);
    let sum = vars
        .iter()
        .fold(Term::int(constant), |acc, w| acc.iadd(&smt::abs(&var(*w))));
    let new = smt::poly_term(p, &var);
    let mut factors = vec![1];
    if max_coeff > 1 {
        factors.push(max_coeff);
    }
    for factor in factors {
        let s = Term::int(factor).imul(&sum);
        let cond = new.ile(&s).and(&new.ineg().ile(&s));
        if matches!(solver.must_be_true(&guard, &cond), Ok(true)) {
            return Some(TempBound {
                vars,
                constant,
                factor,
            });
        }
    }
    None
}

/// An upper bound of the value `p` takes after `t` (a ranking function after an entry of
/// its transitions), proved by Z3 under the guard: first a constant `K` (the constants of
/// the guard atoms that mention `p`'s variables and `p`'s own), then `K + Σ_{w∈W} |x_w|`
/// with `W` the other variables of those atoms, then `c·(K + Σ_w |x_w|)` over the variables
/// of a linear `p` with positive coefficients (`c` the largest). A loop that leaves the inner loop's
/// counter small (`D − C ≤ 12` after `C' = C − 10, D' = D + 2` under `C ≥ D`) re-enters it
/// with a small value whatever the sizes of `C` and `D`: the inner loop's runtime bound
/// then needs no size bound of its own SCC.
pub fn value_upper_bound(
    solver: &mut dyn Solver,
    t: &Transition,
    n: usize,
    p: &Poly,
) -> Option<TempBound> {
    let pvars = p.vars();
    let (constant, others) = constants_and_others(&atoms_on(t, &pvars), p, n, &pvars)?;
    // Then the variables `p` grows with (`B − C + 1 ≤ |B| + K` under `C ≥ 0`).
    let positive: Vec<usize> = pvars
        .iter()
        .copied()
        .filter(|&w| w < n && p.is_linear() && p.linear_coeff(w) > 0)
        .collect();
    let max_coeff = positive
        .iter()
        .map(|&w| p.linear_coeff(w))
        .max()
        .unwrap_or(1);
    let mut candidates = vec![(Vec::new(), 1)];
    if !others.is_empty() {
        candidates.push((others, 1));
    }
    if !positive.is_empty() && p.is_linear() {
        candidates.push((positive, max_coeff));
    }
    first_proven_bound(solver, t, p, constant, candidates)
}

/// The first candidate `(W, c)` for which Z3 proves `p ≤ c·(K + Σ_{w∈W} |x_w|)` under
/// `t`'s guard, as a [`TempBound`] (candidates come smallest first: a bound over fewer
/// variables needs fewer size bounds).
pub(crate) fn first_proven_bound(
    solver: &mut dyn Solver,
    t: &Transition,
    p: &Poly,
    constant: i128,
    candidates: Vec<(Vec<usize>, i128)>,
) -> Option<TempBound> {
    let var = |w: usize| smt::int_var("v", w);
    let guard = smt::guard_terms(&t.guard, &var);
    let value = smt::poly_term(p, &var);
    for (vars, factor) in candidates {
        let sum = vars
            .iter()
            .fold(Term::int(constant), |acc, w| acc.iadd(&smt::abs(&var(*w))));
        let cond = value.ile(&Term::int(factor).imul(&sum));
        if matches!(solver.must_be_true(&guard, &cond), Ok(true)) {
            return Some(TempBound {
                vars,
                constant,
                factor,
            });
        }
    }
    None
}

/// Whether the update `p` of variable `v` on `t` never grows `|v|`: Z3 proves
/// `guard ⇒ −|v| ≤ p ≤ |v|` (temporaries included). KoAT's local size bounds of the form
/// `|v'| ≤ |v|`: such a step adds nothing to the size bound of `v` inside an SCC, which
/// needs no runtime bound (counting loops `v' = v − 1` under `v ≥ 1`).
pub fn non_growing(solver: &mut dyn Solver, t: &Transition, v: usize, p: &Poly) -> bool {
    let var = |w: usize| smt::int_var("v", w);
    let guard = smt::guard_terms(&t.guard, &var);
    let x = var(v);
    let abs = smt::abs(&x);
    let new = smt::poly_term(p, &var);
    let cond = new.ile(&abs).and(&new.ineg().ile(&abs));
    matches!(solver.must_be_true(&guard, &cond), Ok(true))
}

/// Whether the update `p` of `v` on `t` never takes `|v|` above `max(|v|, k)`: Z3 proves
/// `guard ⇒ −m ≤ p ≤ m` with `m = max(|v|, k)`, `k` the constants of `p` and of the guard
/// atoms that mention `v` (`C' = C − 1` under `C ≥ 0`: `|C'| ≤ max(|C|, 2)`, although
/// `C = 0` goes to `−1`). Such a step adds `k` to `v`'s size once, not once per step.
/// `Some(k)`; `None` without such a `k`, for `k = 0` (which [`non_growing`] covers) and
/// for updates other than `±v + c`.
pub fn non_growing_above(
    solver: &mut dyn Solver,
    t: &Transition,
    v: usize,
    p: &Poly,
) -> Option<i128> {
    let k = t
        .guard
        .iter()
        .filter(|a| a.rel != Rel::Ne && a.poly.vars().contains(&v))
        .map(|a| a.poly.constant_term().checked_abs())
        .chain([p.constant_term().checked_abs()])
        .try_fold(0i128, |acc, c| acc.checked_add(c?))?;
    // Only `±v + c`: other updates either grow or are covered by resets (one query per
    // counter step is what this costs).
    let a = p.linear_coeff(v);
    if k == 0 || a.abs() != 1 || p.sub(&Poly::var(v).scale(a)).as_constant().is_none() {
        return None;
    }
    let var = |w: usize| smt::int_var("v", w);
    let guard = smt::guard_terms(&t.guard, &var);
    let x = var(v);
    let abs = smt::abs(&x);
    let cap = Term::int(k).ile(&abs).ite(&abs, &Term::int(k));
    let new = smt::poly_term(p, &var);
    let cond = new.ile(&cap).and(&new.ineg().ile(&cap));
    matches!(solver.must_be_true(&guard, &cond), Ok(true)).then_some(k)
}

/// A constant bound of `|x_w|` before `t` read off the guard: atoms `c·x_w + k ≥ 0` (or
/// `= 0`) with no other variable give a lower and an upper bound (interval invariants
/// put such atoms into the guards); `None` unless both exist. A variable that a loop
/// counts to a constant thus has a constant size where that loop's guard holds, whatever
/// its size bound inside the SCC.
pub fn guard_constant(t: &Transition, w: usize) -> Option<i128> {
    let (mut lo, mut hi) = (None::<i128>, None::<i128>);
    for a in &t.guard {
        let vars = a.poly.vars();
        if vars.len() != 1 || !vars.contains(&w) || !a.poly.is_linear() {
            continue;
        }
        let (c, k) = (a.poly.linear_coeff(w), a.poly.constant_term());
        // c·x + k ≥ 0: x ≥ ⌈−k/c⌉ for c > 0, x ≤ ⌊k/−c⌋ for c < 0; `= 0` gives both.
        let lower = (c > 0 || a.rel == Rel::Eq).then(|| {
            let (c, k) = if c > 0 { (c, k) } else { (-c, -k) };
            -k.div_euclid(c)
        });
        let upper = (c < 0 || a.rel == Rel::Eq).then(|| {
            let (c, k) = if c < 0 { (-c, k) } else { (c, -k) };
            k.div_euclid(c)
        });
        if a.rel == Rel::Ne {
            continue;
        }
        if let Some(l) = lower {
            lo = Some(lo.map_or(l, |x| x.max(l)));
        }
        if let Some(h) = upper {
            hi = Some(hi.map_or(h, |x| x.min(h)));
        }
    }
    Some(lo?.checked_abs()?.max(hi?.checked_abs()?))
}

/// Whether the update `p` of `v` on `t` never takes `|v|` above `max(|v|, K + Σ_{w∈W} |w|)`
/// with `W` the other program variables of the guard atoms that mention `v` and `K` their
/// constants and `p`'s (Z3; `E' = E + 1` under `F ≥ E`: `|E'| ≤ max(|E|, |F| + 1)`). Like
/// [`non_growing_above`] with a bound over other variables: a step that only climbs
/// towards a bound the guard sets adds that bound once, however often it runs.
pub fn capped_by_guard(
    solver: &mut dyn Solver,
    t: &Transition,
    n: usize,
    v: usize,
    p: &Poly,
) -> Option<TempBound> {
    let own = BTreeSet::from([v]);
    let (constant, vars) = constants_and_others(&atoms_on(t, &own), p, n, &own)?;
    if vars.is_empty() {
        return None;
    }
    let var = |w: usize| smt::int_var("v", w);
    let guard = smt::guard_terms(&t.guard, &var);
    let abs = smt::abs(&var(v));
    let new = smt::poly_term(p, &var);
    // Each variable alone first, but those an equation ties to `v`: a cap over fewer
    // variables needs fewer sizes, and `E + 1 = B` in the guard of `B' = B + 1` under
    // `H ≥ B` would make the cap `|E| + K`, `B`'s own copy (SAS10's `counterex1`).
    let tied: BTreeSet<usize> = t
        .guard
        .iter()
        .filter(|a| a.rel == Rel::Eq && a.poly.vars().contains(&v))
        .flat_map(|a| a.poly.vars())
        .collect();
    let mut candidates: Vec<Vec<usize>> = Vec::new();
    if vars.len() > 1 {
        candidates.extend(vars.iter().filter(|w| !tied.contains(w)).map(|&w| vec![w]));
    }
    candidates.push(vars);
    for vars in candidates {
        let cap = vars
            .iter()
            .fold(Term::int(constant), |acc, w| acc.iadd(&smt::abs(&var(*w))));
        let m = cap.ile(&abs).ite(&abs, &cap);
        let cond = new.ile(&m).and(&new.ineg().ile(&m));
        if matches!(solver.must_be_true(&guard, &cond), Ok(true)) {
            return Some(TempBound {
                vars,
                constant,
                factor: 1,
            });
        }
    }
    None
}

/// The sum of the absolute constants of `atoms` and `p` (`None` on overflow), and the
/// program variables (below `n`) the atoms mention besides `own`, sorted: the pieces of a
/// candidate bound `K + Σ|w|` that the guard may prove for `p`.
pub(crate) fn constants_and_others(
    atoms: &[&Atom],
    p: &Poly,
    n: usize,
    own: &BTreeSet<usize>,
) -> Option<(i128, Vec<usize>)> {
    let constant = atoms
        .iter()
        .map(|a| a.poly.constant_term().checked_abs())
        .chain([p.constant_term().checked_abs()])
        .try_fold(0i128, |acc, c| acc.checked_add(c?))?;
    let mut others: Vec<usize> = atoms
        .iter()
        .flat_map(|a| a.poly.vars())
        .filter(|w| *w < n && !own.contains(w))
        .collect();
    others.sort_unstable();
    others.dedup();
    Some((constant, others))
}
