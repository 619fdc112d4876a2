//! Two-phase (nested) ranking functions for a single loop `t` (Ben-Amram & Genaim's
//! multiphase ranking functions, in the nested form of Leike & Heizmann): `(f1, f2)` with,
//! on every step `x̄ → x̄'` of `t`,
//!
//! * `f1(x̄) − f1(x̄') ≥ 1`,
//! * `f2(x̄) − f2(x̄') + f1(x̄) ≥ 1`,
//! * `f2(x̄) ≥ 0`.
//!
//! Soundness: `f1` drops below 1 after at most `max(f1(x̄₀), 0)` steps, while `f2` grows by
//! less than `f1(x̄₀)` per step; from then on `f2` drops by at least 1 per step and stays
//! `≥ 0`. So a run of `t` entered with values `F1 = f1(x̄₀)`, `F2 = f2(x̄₀)` takes at most
//! `F1 + F1² + F2 + 1` steps. Synthesis is Farkas' lemma as for linear ranking functions;
//! [`check`] re-proves the three conditions directly by a solver query.

use crate::its::{Its, Transition};
use crate::poly::Poly;
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
