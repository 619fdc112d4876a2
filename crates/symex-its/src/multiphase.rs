//! Multiphase (nested) ranking functions (Ben-Amram & Genaim's multiphase ranking
//! functions, in the nested form of Leike & Heizmann).
//!
//! **Depth k, per location, on a set of transitions** ([`Multiphase`]): `(f_1, …, f_k)`
//! where every transition is either *weak* (each `f_i` non-increasing) or *strict*:
//!
//! * `f_1(x̄) − f_1(x̄') ≥ 1`,
//! * `f_i(x̄) − f_i(x̄') + f_{i−1}(x̄) ≥ 1` for `i ≥ 2`,
//! * `f_k(x̄) ≥ 0`.
//!
//! Soundness ([`steps_bound`]): in a stretch inside the transitions entered with
//! `f_i ≤ F_i` (`F_i ≥ 0`, `B = max F_i`), weak steps lower nothing's upper bound, so count
//! strict steps `t = 0, 1, …` only. By induction over `i`, `f_i` after `t` strict steps is
//! at most `v_i(t) = Σ_{j<i} F_{i−j}·C(t, j) − C(t, i)` (binomial coefficients:
//! `f_1 ≤ F_1 − t`, and `f_i` grows by at most `f_{i−1}` per step, with
//! `Σ_{s<t} C(s, j) = C(t, j+1)`). For `t ≥ k` and `j < k`,
//! `C(t, j) ≤ r^{k−j}·C(t, k)` with `r = k/(t−k+1)`; at `t = k·(B+2)`, `r < 1/(B+1)`, so
//! `Σ_{j<k} F_{k−j}·C(t, j) < B·C(t, k)·r/(1−r) < C(t, k)` and `v_k(t) < 0`. A strict step
//! needs `f_k ≥ 0`, so step number `k·(B+2)` is never strict: there are at most
//! `k·(B+2) ≤ k·(Σ F_i + 2)` strict steps, a bound linear in the phases' values.
//! Synthesis is one Farkas query ([`crate::farkas::synthesize_multiphase`]);
//! [`check_step`] re-proves the conditions by a direct solver query.
//!
//! **Two-phase functions of a single loop** ([`TwoPhase`], [`synthesize`], [`check`]):
//! the same conditions with `k = 2` for a self-loop that is always strict.

use crate::bound::Bound;
use crate::its::{Its, Transition};
use crate::poly::Poly;
use crate::ranking::{Decrease, RankingFunction};
use crate::smt;
use symex_expr::Term;
use symex_solver::Solver;

/// A two-phase ranking function over the program variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoPhase {
    /// The first phase.
    pub f1: Poly,
    /// The second phase.
    pub f2: Poly,
}

/// Finds `(f1, f2)` for the self-loop `t` (index `i`).
pub fn synthesize(its: &Its, i: usize, solver: &mut dyn Solver) -> Option<TwoPhase> {
    let t = &its.transitions[i];
    if t.source != t.target() {
        return None;
    }
    let n = its.arity();
    // f2(x') − f2(x) − f1(x) ≤ −1 and f1(x') − f1(x) ≤ −1 and −f2(x) ≤ 0, by Farkas on
    // the transition's linear constraints, with the template unknowns of both phases.
    let f = crate::farkas::two_phase_query(its, t, n);
    let model = solver.model(&f.query).ok()??;
    let value = |t: &Term| model.value_of(t).as_int().unwrap_or(0);
    let poly = |(a, a0): &(Vec<Term>, Term)| {
        let mut p = Poly::constant(value(a0));
        for (v, av) in a.iter().enumerate() {
            p = p.add(&Poly::var(v).scale(value(av)));
        }
        p
    };
    Some(TwoPhase {
        f1: poly(&f.f1),
        f2: poly(&f.f2),
    })
}

/// Whether `(f1, f2)` satisfies the three conditions on `t` (a solver query written from
/// the transition itself, non-linear parts included).
pub fn check(solver: &mut dyn Solver, f: &TwoPhase, t: &Transition) -> bool {
    let var = |v: usize| smt::int_var("v", v);
    let guard: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
    let after = |p: &Poly| smt::poly_term(&p.substitute(&|v| t.update()[v].clone()), &var);
    let before = |p: &Poly| smt::poly_term(p, &var);
    let one = Term::int(1);
    let c1 = after(&f.f1).iadd(&one).ile(&before(&f.f1));
    let c2 = after(&f.f2)
        .iadd(&one)
        .ile(&before(&f.f2).iadd(&before(&f.f1)));
    let c3 = Term::int(0).ile(&before(&f.f2));
    matches!(solver.must_be_true(&guard, &c1.and(&c2).and(&c3)), Ok(true))
}

/// A multiphase ranking function: the phases `f_1, …, f_k`, each per location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Multiphase {
    /// `f_1` first.
    pub phases: Vec<RankingFunction>,
}

impl Multiphase {
    /// Readable form: `(l1: X; l1: Y)`.
    pub fn display(&self, its: &Its) -> String {
        let phases: Vec<String> = self.phases.iter().map(|f| f.display(its)).collect();
        format!("({})", phases.join("; "))
    }
}

/// Finds a multiphase function of depth 2..=`max_depth` (the smallest that exists) for
/// the transitions `ts`, strict on each of `forced`, each depth's query within
/// `query_timeout` of its own, checks it on each of them, and returns it with the
/// transitions it proved strict (`None` if none, if a query ran out, if a check failed, or
/// if one of `forced` is not proved strict). The depths are bounded by their count, not by a
/// time for all of them together: such a budget cut the deeper depths under load (a query
/// that waited for a core spent the next depth's share), so a function found on a quiet
/// machine was missed on a loaded one. A query that runs out ends the search, as a deeper
/// one is larger still.
pub fn synthesize_checked(
    its: &Its,
    ts: &[usize],
    forced: &[usize],
    max_depth: usize,
    checker: &mut dyn Solver,
    query_timeout: std::time::Duration,
) -> Option<(Multiphase, Vec<usize>)> {
    for depth in 2..=max_depth {
        if smt::out_of_time() {
            return None;
        }
        let mut synth = smt::solver(query_timeout);
        let phases =
            match crate::farkas::synthesize_multiphase(its, ts, forced, depth, synth.as_mut()) {
                Ok(Some(phases)) => phases,
                Ok(None) => continue,
                // Out of time: a deeper query is larger still.
                Err(_) => return None,
            };
        let mp = Multiphase { phases };
        let mut strict = Vec::new();
        for &i in ts {
            match check_step(checker, &mp, &its.transitions[i]) {
                Decrease::Strict => strict.push(i),
                Decrease::Weak => {}
                Decrease::Fails => return None,
            }
        }
        let proved = !strict.is_empty() && forced.iter().all(|i| strict.contains(i));
        return proved.then_some((mp, strict));
    }
    None
}

/// Whether `t` is a strict or weak step of `mp` (two solver queries written from the
/// transition itself, non-linear parts included).
pub fn check_step(solver: &mut dyn Solver, mp: &Multiphase, t: &Transition) -> Decrease {
    let var = |v: usize| smt::int_var("v", v);
    let guard: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
    let before = |f: &RankingFunction| smt::poly_term(&f.get(t.source), &var);
    let after = |f: &RankingFunction| {
        smt::poly_term(
            &f.get(t.target()).substitute(&|v| t.update()[v].clone()),
            &var,
        )
    };
    let one = Term::int(1);
    let mut strict = Vec::new();
    for (i, f) in mp.phases.iter().enumerate() {
        let mut limit = before(f);
        if i > 0 {
            limit = limit.iadd(&before(&mp.phases[i - 1]));
        }
        strict.push(after(f).iadd(&one).ile(&limit));
    }
    if let Some(last) = mp.phases.last() {
        strict.push(Term::int(0).ile(&before(last)));
    }
    let valid =
        |solver: &mut dyn Solver, c: Term| matches!(solver.must_be_true(&guard, &c), Ok(true));
    if valid(solver, Term::and_all(&strict)) {
        return Decrease::Strict;
    }
    let weak: Vec<Term> = mp.phases.iter().map(|f| after(f).ile(&before(f))).collect();
    if valid(solver, Term::and_all(&weak)) {
        Decrease::Weak
    } else {
        Decrease::Fails
    }
}

/// `k·(Σ F_i + 2)` of the module comment: the strict steps of one stretch entered with
/// `|f_i| ≤ values[i]` (`k = values.len()`).
pub fn steps_bound(values: &[Bound]) -> Bound {
    let sum = values.iter().fold(Bound::constant(2), |acc, f| acc.add(f));
    Bound::constant(values.len() as i128).mul(&sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The longest run the conditions allow from `f_i = F_i`: every phase drops by exactly
    /// what a strict step must (`f_1 − 1`, `f_i + f_{i−1} − 1`) while `f_k ≥ 0`.
    fn longest_run(values: &[i128]) -> i128 {
        let mut f = values.to_vec();
        let mut steps = 0;
        while f[f.len() - 1] >= 0 {
            let prev = f.clone();
            f[0] -= 1;
            for i in 1..f.len() {
                f[i] += prev[i - 1] - 1;
            }
            steps += 1;
        }
        steps
    }

    #[test]
    fn steps_bound_covers_the_longest_runs() {
        for k in 1..=4usize {
            let mut values = vec![0i128; k];
            // All F in 0..=7 (odometer).
            loop {
                let bounds: Vec<Bound> = values.iter().map(|v| Bound::constant(*v)).collect();
                let b = steps_bound(&bounds).eval(&[]).unwrap();
                assert!(longest_run(&values) <= b, "{values:?}");
                let Some(i) = values.iter().position(|v| *v < 7) else {
                    break;
                };
                values[i] += 1;
                values[..i].iter_mut().for_each(|v| *v = 0);
            }
        }
    }
}
