//! Ranking functions of the positive part `max(f, 0)`: a linear `f` (per location) that is
//! strictly decreasing and bounded on some transitions (`f ≥ 1`, `f' ≤ f − 1`) and, on each
//! other transition of the SCC, either non-increasing or set to at most 0 (`f' ≤ f` or
//! `f' ≤ 0`, i.e. `f' ≤ max(f, 0)`). `P = max(f, 0)` then drops by at least 1 on every strict
//! step and never rises, so a stretch of the SCC entered with `f = v` has at most `max(v, 0)`
//! strict steps — the bound `Σ_entries RB(e)·|f|(SB(e))` of a linear ranking function holds
//! unchanged. It is the positive part that Loopus' bound analysis counts with (Sinn, Zuleger
//! & Veith, CAV 2014: a counter reset to a value `≤ 0` stops the steps it bounds).
//!
//! A loop whose last lap sets its counter to 0 from a value that may be negative has no
//! linear ranking function: Flores-Montoya's `sipmamergesort` merges chunks of width `2P`
//! while `M ≥ 2P` (`V := M − 2P`, back with `M := V` while `V ≥ 1`), and a last chunk sets
//! `V := 0` — on the first lap with `M := N`, which may be negative. `f = M − 1` at the
//! loop head, `V` after it, is non-increasing but for that last chunk, which sets it to 0.
//!
//! Used only where no linear and no multiphase function removes a transition of the SCC
//! (`termination::prove_scc`): a fallback, one Farkas query with a disjunction per
//! transition, re-checked by [`check`].

use crate::farkas;
use crate::its::{Its, Transition};
use crate::ranking::{self, Decrease, RankingFunction};
use crate::scoped_flag::ScopedFlag;
use crate::smt;
use std::cell::Cell;
use symex_expr::Term;
use symex_solver::Solver;

thread_local! {
    /// Whether [`switched_off`] is in force on this thread.
    static OFF: Cell<bool> = const { Cell::new(false) };
}

/// Whether the rule is in force on this thread (it is unless [`switched_off`]).
pub fn in_force() -> bool {
    !OFF.with(Cell::get)
}

/// Keeps the rule out of the termination proofs on this thread while the guard lives: what
/// the prover finds without it (a test of a refinement whose example these functions also
/// prove directly, or of this rule's own need).
pub fn switched_off() -> ScopedFlag {
    ScopedFlag::set(&OFF)
}

/// [`ranking::check`], where *weak* is `f' ≤ max(f, 0)`: `Strict` when `f ≥ 1 ∧ f' ≤ f − 1`,
/// `Weak` when `f' ≤ f ∨ f' ≤ 0` under the guard, else `Fails`.
pub fn check(solver: &mut dyn Solver, f: &RankingFunction, t: &Transition) -> Decrease {
    let d = ranking::check(solver, f, t);
    if d != Decrease::Fails {
        return d;
    }
    let var = |v: usize| smt::int_var("v", v);
    let guard: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
    let before = smt::poly_term(&f.get(t.source), &var);
    let after_poly = f.get(t.target()).substitute(&|v| t.update()[v].clone());
    let after = smt::poly_term(&after_poly, &var);
    let clamped = after.ile(&before).or(&after.ile(&Term::int(0)));
    match solver.must_be_true(&guard, &clamped) {
        Ok(true) => Decrease::Weak,
        _ => Decrease::Fails,
    }
}

/// A function found by [`farkas::synthesize_clamped`] for `ts` and checked by [`check`] on
/// each of them, with the transitions it removes (strict); `None` when there is none or a
/// check fails.
pub fn synthesize_checked(
    its: &Its,
    ts: &[usize],
    synth: &mut dyn Solver,
    checker: &mut dyn Solver,
) -> Option<(RankingFunction, Vec<usize>)> {
    let f = farkas::synthesize_clamped(its, ts, synth)?;
    let mut strict = Vec::new();
    for &i in ts {
        match check(checker, &f, &its.transitions[i]) {
            Decrease::Strict => strict.push(i),
            Decrease::Weak => {}
            Decrease::Fails => return None,
        }
    }
    (!strict.is_empty()).then_some((f, strict))
}
