//! Linear ranking functions `f_l(x̄) = a_l·x̄ + a0_l` per location, and their check by a
//! solver query written directly from the transitions (independent of how they were
//! found): on a transition `l → l'` with guard `g` and update `ū`, *non-increasing* is
//! `g ⇒ f_l'(ū) ≤ f_l(x̄)`, *strictly decreasing and bounded* is
//! `g ⇒ f_l(x̄) ≥ 1 ∧ f_l'(ū) ≤ f_l(x̄) − 1`.

use crate::its::{Its, Transition};
use crate::poly::Poly;
use crate::smt;
use std::collections::BTreeMap;
use symex_expr::Term;
use symex_solver::Solver;

/// A linear ranking function: a polynomial over the program variables per location
/// (locations not in the map have the value 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankingFunction {
    /// `f_l` per location `l`.
    pub at: BTreeMap<usize, Poly>,
}

impl RankingFunction {
    /// `f_l`.
    pub fn get(&self, l: usize) -> Poly {
        self.at.get(&l).cloned().unwrap_or_default()
    }

    /// `f_l(values)`.
    pub fn eval(&self, l: usize, values: &[i128]) -> Option<i128> {
        self.get(l).eval(values)
    }

    /// Readable form: `l1: X - Y, l2: X`.
    pub fn display(&self, its: &Its) -> String {
        let parts: Vec<String> = self
            .at
            .iter()
            .map(|(l, p)| {
                format!(
                    "{}: {}",
                    its.locations[*l],
                    p.display(&|v| its.vars[v].clone())
                )
            })
            .collect();
        parts.join(", ")
    }
}

/// What a check found for one transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decrease {
    /// Strictly decreasing and bounded (≥ 1 before the step).
    Strict,
    /// Non-increasing only.
    Weak,
    /// Not proved non-increasing (or the solver could not tell).
    Fails,
}

/// Checks `f` on transition `t` (single target) with one solver query per property.
pub fn check(solver: &mut dyn Solver, f: &RankingFunction, t: &Transition) -> Decrease {
    let var = |v: usize| smt::int_var("v", v);
    let guard: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
    let before = smt::poly_term(&f.get(t.source), &var);
    let after_poly = f.get(t.target()).substitute(&|v| t.update()[v].clone());
    let after = smt::poly_term(&after_poly, &var);
    let valid = |solver: &mut dyn Solver, cond: Term| {
        matches!(solver.must_be_true(&guard, &cond), Ok(true))
    };
    // A guard no values satisfy makes both properties hold vacuously, as they should.
    let strict = after
        .iadd(&Term::int(1))
        .ile(&before)
        .and(&Term::int(1).ile(&before));
    if valid(solver, strict) {
        Decrease::Strict
    } else if valid(solver, after.ile(&before)) {
        Decrease::Weak
    } else {
        Decrease::Fails
    }
}
