//! Amortised runtime bounds of a ranking step (the reset/increment accounting of Sinn,
//! Zuleger & Veith's Loopus, in KoAT's setting): a step's function `f` that other
//! transitions of the SCC may *increase* still bounds its removed transitions by what `f`
//! is worth on entering the SCC plus what those transitions add to it.
//!
//! With `P = max(f, 0)` along a run inside the SCC: each removed step needs `f ≥ 1` and
//! lowers `f` by at least one, so lowers `P` by at least one; a non-increasing step does
//! not raise `P`; a step `t` with `f' − f ≤ δ_t` under its guard raises `P` by at most
//! `max(δ_t, 0)`; and each visit of the SCC starts with `P ≤ |f|` after the entry. So the
//! removed transitions run at most
//! `Σ_{e entering the SCC} RB(e)·|f|(SB(e)) + Σ_t RB(t)·|δ_t|(SB before t)` times.
//!
//! KoAT's own rule counts from the entries of the step's part `T'` instead: an outer loop
//! `x' = x − 1` whose inner loop runs `x' = x + 1` (rank3's `x++` in the innermost loop)
//! re-enters `T'` with `x` as large as the inner loop's size bound, which waits for the
//! outer loop's bound: the runtime and size bounds wait for each other, while here only
//! the inner loop's runtime bound (times a constant increment) is needed.

use super::Ctx;
use crate::bound::Bound;
use crate::farkas;
use crate::its::Transition;
use crate::local_size::{self, TempBound};
use crate::poly::Poly;
use crate::ranking::{self, Decrease};
use crate::smt;
use crate::termination::{RankingStep, SccProof};
use std::collections::BTreeSet;
use symex_expr::Term;
use symex_solver::Solver;

/// How a step's function behaves on one transition of the SCC outside the step's part.
#[derive(Clone, Debug)]
pub(super) enum Change {
    /// Never increases.
    NonIncreasing,
    /// Increases by at most this (composed with the sizes before the transition).
    Increase(TempBound),
    /// No bound of the increase found.
    Unbounded,
}

impl Ctx<'_> {
    /// For each open step of the SCC: its amortised bound ([`Ctx::amortised_bound`]) when
    /// every part of it is known. Marks the steps bounded; whether any was.
    pub(super) fn amortised_progress(&mut self, proof: &SccProof, done: &mut [bool]) -> bool {
        let mut progress = false;
        for (k, step) in proof.steps.iter().enumerate() {
            if done[k] || !step.is_plain() {
                continue;
            }
            if !self.fallback_left() {
                break;
            }
            if let Some(b) = self.amortised_bound(proof, step) {
                for &t in &step.removed {
                    self.rb[t] = Some(b.clone());
                }
            } else {
                for &t in &step.removed {
                    if self.rb[t].is_none() && self.fallback_left() {
                        self.rb[t] = self.raised_bound(proof, t);
                    }
                }
            }
            if step.removed.iter().all(|&t| self.rb[t].is_some()) {
                done[k] = true;
                progress = true;
            }
        }
        progress
    }

    /// A bound of transition `t` from a new function strictly decreasing on `t`,
    /// non-increasing on the SCC's transitions without a runtime bound and raised by at
    /// most a constant `c_u` on those with one ([`farkas::synthesize_with_slack`], every
    /// property re-checked by Z3): `Σ_{e entering} RB(e)·|f|(SB(e)) + Σ_u RB(u)·c_u`.
    /// Needs no size bound inside the SCC (rank3: the outer loop's `x − 1`, which the
    /// innermost loop raises by one per step).
    fn raised_bound(&mut self, proof: &SccProof, t: usize) -> Option<Bound> {
        let its = self.its;
        let slack: Vec<usize> = proof
            .transitions
            .iter()
            .copied()
            .filter(|&u| u != t && self.rb[u].as_ref().is_some_and(|b| *b != Bound::Infinite))
            .collect();
        if slack.is_empty() {
            return None;
        }
        let found = farkas::synthesize_with_slack(
            its,
            &proof.transitions,
            &[t],
            &slack,
            self.quick.as_mut(),
        );
        let checked = found.filter(|(f, raised)| {
            proof.transitions.iter().all(|&u| {
                let tr = &its.transitions[u];
                if let Some((_, c)) = raised.iter().find(|(v, _)| *v == u) {
                    return raised_by_at_most(self.quick.as_mut(), f, tr, *c);
                }
                let d = ranking::check(self.quick.as_mut(), f, tr);
                d == Decrease::Strict || (u != t && d == Decrease::Weak)
            })
        });
        self.charge_fallback();
        let (f, raised) = checked?;
        let mut total = self.scc_wide_bound(&f)?;
        for (u, c) in raised {
            let rb = self.rb[u].clone()?;
            total = total.add(&rb.mul(&Bound::constant(c)));
        }
        (total != Bound::Infinite).then_some(total)
    }

    /// `Σ_{e entering} RB(e)·|f|(SB(e)) + Σ_t RB(t)·|δ_t|` for the step's function `f`
    /// (see the module comment); `None` when an increase has no bound or a part is unknown.
    fn amortised_bound(&mut self, proof: &SccProof, step: &RankingStep) -> Option<Bound> {
        let its = self.its;
        let mut total = Bound::constant(0);
        for &t in &proof.transitions {
            if step.remaining.contains(&t) {
                // The step's part: the termination proof checked `f` non-increasing there.
                continue;
            }
            let change = self.change_on(step, t);
            let delta = match change {
                Change::NonIncreasing => continue,
                Change::Unbounded => return None,
                Change::Increase(d) => d,
            };
            let rb = self.rb[t].clone()?;
            let source = its.transitions[t].source;
            let d = self
                .compose_sizes(t, source, &delta)
                .filter(|d| *d != Bound::Infinite)
                .or_else(|| self.entry_bounded_increase(proof, &step.function, t))?;
            total = total.add(&rb.mul(&d));
        }
        if total == Bound::Infinite {
            return None;
        }
        let entries = self.scc_wide_bound(&step.function)?;
        Some(entries.add(&total)).filter(|b| *b != Bound::Infinite)
    }

    /// An upper bound of the increase `f' − f` of `f` on transition `t` that needs no size
    /// inside the SCC: when the increase, read as a function of the state before a step
    /// (the same at every location of the SCC), never increases along the SCC's
    /// transitions, its value before `t` is at most its value after the visit's entry,
    /// which `Σ_{e entering the SCC} |δ|(SB(e))` bounds (T2's `polyrank4` after `C < 0`:
    /// `A' = A + 1, B' = B + A + 1` raises `A − B` by `−A`, and every transition raises `A`,
    /// while the size of `A` waits for the runtime bound sought). `None` otherwise.
    pub(super) fn entry_bounded_increase(
        &mut self,
        proof: &SccProof,
        f: &ranking::RankingFunction,
        t: usize,
    ) -> Option<Bound> {
        let its = self.its;
        let tr = &its.transitions[t];
        let after = f.get(tr.target()).substitute(&|w| tr.update()[w].clone());
        let diff = after.sub(&f.get(tr.source));
        if diff.vars().iter().any(|&w| w >= its.arity()) || !self.fallback_left() {
            return None;
        }
        let (locs, _) = self.current.clone()?;
        let g = ranking::RankingFunction {
            at: locs.iter().map(|&l| (l, diff.clone())).collect(),
        };
        let monotone = proof.transitions.iter().all(|&u| {
            ranking::check(self.quick.as_mut(), &g, &its.transitions[u]) != Decrease::Fails
        });
        self.charge_fallback();
        if !monotone {
            return None;
        }
        let mut total = Bound::constant(0);
        if locs.contains(&its.start) {
            total = Bound::of_poly(&diff, &mut Bound::start_var);
        }
        for e in 0..its.transitions.len() {
            let te = &its.transitions[e];
            if locs.contains(&te.source) || !locs.contains(&te.target()) {
                continue;
            }
            total = total.add(&self.entry_value(e, &diff)?);
        }
        (total != Bound::Infinite).then_some(total)
    }

    /// [`Change`] of the step's function on transition `t` (cached per step).
    fn change_on(&mut self, step: &RankingStep, t: usize) -> Change {
        let key = (step.removed.clone(), t);
        if let Some(c) = self.amortised.get(&key) {
            return c.clone();
        }
        if !self.fallback_left() {
            // Not cached: with time left (another inference) it may be found.
            return Change::Unbounded;
        }
        let tr = &self.its.transitions[t];
        let c = if ranking::check(self.quick.as_mut(), &step.function, tr) != Decrease::Fails {
            Change::NonIncreasing
        } else {
            let f = &step.function;
            let after = f.get(tr.target()).substitute(&|w| tr.update()[w].clone());
            let diff = after.sub(&f.get(tr.source));
            match increase_bound(self.quick.as_mut(), tr, self.its.arity(), &diff) {
                Some(d) => Change::Increase(d),
                None => Change::Unbounded,
            }
        };
        self.charge_fallback();
        self.amortised.insert(key, c.clone());
        c
    }
}

/// An upper bound `c·(K + Σ_{w∈W} |x_w|)` of `diff` (the increase of a ranking function
/// on `t`, over the variables before `t` and its temporaries) under `t`'s guard, proved by
/// Z3: `K` the constants of the guard atoms that mention `diff`'s variables and `diff`'s
/// own, and `W` tried smallest first (none, each single variable of those atoms, all of
/// them, then `diff`'s variables with positive coefficients, `c` the largest): a bound
/// over fewer variables needs fewer size bounds, which may wait for the very runtime
/// bound being computed (aaron3: `X' ≤ X + Z − 1` bounds `X' − X` by `|Z|`, where the
/// guard's `X ≥ Y` would bring in `Y`, which the bounded loop counts up).
pub(super) fn increase_bound(
    solver: &mut dyn Solver,
    t: &Transition,
    n: usize,
    diff: &Poly,
) -> Option<TempBound> {
    if let Some(c) = diff.as_constant() {
        return Some(TempBound {
            vars: Vec::new(),
            constant: c.max(0),
            factor: 1,
        });
    }
    let dvars = diff.vars();
    // The atoms' variables and `diff`'s own are all candidates here (`own` is empty).
    let (constant, mut others) = local_size::constants_and_others(
        &local_size::atoms_on(t, &dvars),
        diff,
        n,
        &BTreeSet::new(),
    )?;
    others.extend(dvars.iter().copied().filter(|&w| w < n));
    others.sort_unstable();
    others.dedup();
    let mut candidates: Vec<(Vec<usize>, i128)> = vec![(Vec::new(), 1)];
    if others.len() > 1 {
        candidates.extend(others.iter().map(|&w| (vec![w], 1)));
    }
    if !others.is_empty() {
        candidates.push((others, 1));
    }
    if diff.is_linear() {
        let positive: Vec<usize> = dvars
            .iter()
            .copied()
            .filter(|&w| w < n && diff.linear_coeff(w) > 0)
            .collect();
        let factor = positive.iter().map(|&w| diff.linear_coeff(w)).max();
        if let Some(factor) = factor.filter(|&f| f > 1) {
            candidates.push((positive, factor));
        }
    }
    local_size::first_proven_bound(solver, t, diff, constant, candidates)
}

/// Whether `f_l'(ū) ≤ f_l(x̄) + c` under `t`'s guard (Z3).
fn raised_by_at_most(
    solver: &mut dyn Solver,
    f: &ranking::RankingFunction,
    t: &Transition,
    c: i128,
) -> bool {
    let var = |v: usize| smt::int_var("v", v);
    let guard = smt::guard_terms(&t.guard, &var);
    let before = smt::poly_term(&f.get(t.source), &var);
    let after_poly = f.get(t.target()).substitute(&|v| t.update()[v].clone());
    let after = smt::poly_term(&after_poly, &var);
    let cond = after.ile(&before.iadd(&Term::int(c)));
    matches!(solver.must_be_true(&guard, &cond), Ok(true))
}
