//! The constrained Horn clauses of one loop: with `inv` the loop head's predicate over its cells,
//!
//! * initiation: `g₀ → inv(v₀)` (the first arrival's guard and cell values),
//! * consecution: `inv(c) ∧ gᵢ → inv(vᵢ)` for each state an iteration brings back to the head,
//! * safety: `inv(c) ∧ eⱼ → false` for each violation reachable from the head (inside the loop or after
//!   it), and `eₖ → false` for those before it.
//!
//! Guards and values are the merging executor's terms, so the clauses say what the engine's instruction
//! semantics says (no second semantics).

use crate::cut::CutPoint;
use std::cell::RefCell;
use std::rc::Rc;
use symex_bmc::guarded::Shared;
use symex_bmc::unwind::{ErrorRecord, Options};
use symex_bmc::Class;
use symex_engine::{BugKind, Program};
use symex_expr::Term;

/// The clauses, with the predicate's parameters (the cells' variables).
pub struct Clauses {
    pub params: Vec<Term>,
    pub init: Vec<(Term, Vec<Term>)>,
    pub steps: Vec<(Term, Vec<Term>)>,
    pub bad: Vec<Term>,
    pub bad_prefix: Vec<Term>,
    /// The bugs of `bad` and `bad_prefix`, for the report.
    pub violations: Vec<ErrorRecord>,
}

impl Clauses {
    /// `t`, a formula over the predicate's parameters, at the arguments `args` of a clause.
    pub fn at(&self, t: &Term, args: &[Term]) -> Term {
        let map: rustc_hash::FxHashMap<Term, Term> = self
            .params
            .iter()
            .cloned()
            .zip(args.iter().cloned())
            .collect();
        t.substitute(&map)
    }
}

/// Whether `q` is satisfiable, asked through the solver chain of BMC's verdicts (not Spacer); a literal
/// `false` costs no query, every other one is counted in `queries`. `Err`: the solver's reason for
/// answering unknown.
pub fn satisfiable(
    shared: &Rc<RefCell<Shared>>,
    q: Term,
    queries: &mut u64,
) -> Result<bool, String> {
    if q.is_false() {
        return Ok(false);
    }
    *queries += 1;
    match shared.borrow_mut().check(&[q]) {
        symex_solver::SatResult::Unsat => Ok(false),
        symex_solver::SatResult::Sat(_) => Ok(true),
        symex_solver::SatResult::Unknown(u) => Err(u.to_string()),
    }
}

/// Builds the clauses of `cp`'s loop.
pub fn encode(
    prog: &Program,
    opts: &Options,
    cp: &CutPoint,
    classify: &dyn Fn(BugKind) -> Class,
    shared: &Rc<RefCell<Shared>>,
) -> Result<Clauses, String> {
    let it = cp.iteration(prog, opts, shared)?;
    let violation = |e: &&ErrorRecord| classify(e.bug.kind) != Class::End;
    let mut c = Clauses {
        params: cp.cells.iter().map(|c| c.var.clone()).collect(),
        init: vec![(cp.first.dom.guard.clone(), cp.initial.clone())],
        steps: Vec::new(),
        bad: it
            .errors
            .iter()
            .filter(violation)
            .map(|e| e.guard.clone())
            .collect(),
        bad_prefix: cp
            .prefix
            .errors
            .iter()
            .filter(violation)
            .map(|e| e.guard.clone())
            .collect(),
        violations: Vec::new(),
    };
    for s in &it.captured {
        c.steps
            .push((s.dom.guard.clone(), cp.values(prog, s, shared)?));
    }
    c.violations = cp
        .prefix
        .errors
        .iter()
        .chain(&it.errors)
        .filter(violation)
        .cloned()
        .collect();
    Ok(c)
}
