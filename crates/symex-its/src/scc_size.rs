//! Size bounds inside an SCC that need no runtime bound: a linear function `g` per location
//! that never increases on the SCC's transitions and bounds `|v|` after each of them
//! (found by Farkas, [`crate::farkas::synthesize_size_bound`], and re-checked here by a
//! direct solver query). `v` may grow and shrink on steps whose number depends on `v`
//! itself (`A' = A − 1, B' = B + 1` under `A ≥ 1` and `B' = B − 1, A' = A + 1`): the
//! alternation of runtime and size bounds has a cycle there, but `A + B` bounds both.

use crate::its::{Its, Transition};
use crate::poly::Poly;
use crate::ranking::RankingFunction;
use crate::smt;
use symex_expr::Term;
use symex_solver::Solver;

/// A checked function `g` bounding `|v|` after every transition of `ts`, non-increasing on
/// all of them.
pub fn invariant_bound(
    its: &Its,
    ts: &[usize],
    v: usize,
    solver: &mut dyn Solver,
) -> Option<RankingFunction> {
    let g = crate::farkas::synthesize_size_bound(its, ts, v, solver)?;
    ts.iter()
        .all(|&i| check(solver, &g, &its.transitions[i], v))
        .then_some(g)
}

/// `guard ⇒ g_l'(ū) ≤ g_l(x̄) ∧ −g_l'(ū) ≤ u_v ≤ g_l'(ū)` on `t`, non-linear parts
/// included.
fn check(solver: &mut dyn Solver, g: &RankingFunction, t: &Transition, v: usize) -> bool {
    let var = |w: usize| smt::int_var("v", w);
    let guard: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
    let update = |w: usize| t.update()[w].clone();
    let before = smt::poly_term(&g.get(t.source), &var);
    let after = smt::poly_term(&g.get(t.target()).substitute(&update), &var);
    let new_v = smt::poly_term(&Poly::var(v).substitute(&update), &var);
    let cond = after
        .ile(&before)
        .and(&new_v.ile(&after))
        .and(&new_v.ineg().ile(&after));
    matches!(solver.must_be_true(&guard, &cond), Ok(true))
}
