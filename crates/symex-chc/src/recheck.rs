//! symex's own check of Spacer's invariant, before any `true` rests on it: with `J` the interpretation
//! of the loop head's predicate, each clause must hold with `J` in its place —
//!
//! * initiation: `g₀ ∧ ¬J(v₀)` unsatisfiable,
//! * consecution: `gᵢ ∧ J(c) ∧ ¬J(vᵢ)` unsatisfiable for each state an iteration brings back,
//! * safety: `eⱼ ∧ J(c)` unsatisfiable for each violation from the head, `eₖ` for those before it.
//!
//! The queries go through the same solver chain as BMC's verdicts, not through Spacer.

use crate::clauses::Clauses;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;
use symex_bmc::guarded::Shared;
use symex_expr::Term;
use symex_solver::SatResult;

/// The check's outcome: `Ok(queries)`, or the first clause `J` fails (or the solver could not decide).
pub fn recheck(c: &Clauses, inv: &Term, shared: &Rc<RefCell<Shared>>) -> Result<u64, String> {
    let at = |args: &[Term]| {
        let map: FxHashMap<Term, Term> =
            c.params.iter().cloned().zip(args.iter().cloned()).collect();
        inv.substitute(&map)
    };
    let mut queries = 0;
    let mut unsat = |what: &str, q: Term| -> Result<(), String> {
        if q.is_false() {
            return Ok(());
        }
        queries += 1;
        match shared.borrow_mut().check(&[q]) {
            SatResult::Unsat => Ok(()),
            SatResult::Sat(_) => Err(format!("Spacer's invariant fails {what}")),
            SatResult::Unknown(u) => Err(format!("the solver could not check {what}: {u}")),
        }
    };
    for (g, args) in &c.init {
        unsat("initiation", g.and(&at(args).not()))?;
    }
    for (g, args) in &c.steps {
        unsat("consecution", g.and(inv).and(&at(args).not()))?;
    }
    for g in &c.bad {
        unsat("safety", g.and(inv))?;
    }
    for g in &c.bad_prefix {
        unsat("safety before the loop", g.clone())?;
    }
    Ok(queries)
}
