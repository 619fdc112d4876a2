//! Transitions whose guard no values satisfy are never taken: removing them keeps every run.

use crate::its::Its;
use crate::smt;
use std::time::Duration;
use symex_expr::Term;

/// Removes the transitions whose guard Z3 proves unsatisfiable (kept when it cannot tell).
pub fn remove_unsatisfiable(its: &Its, timeout: Duration) -> Its {
    let mut solver = smt::solver(timeout);
    let mut out = its.clone();
    out.transitions.retain(|t| {
        let var = |v| smt::int_var("v", v);
        let guard: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
        !matches!(solver.is_sat(&guard), Ok(false))
    });
    out
}
