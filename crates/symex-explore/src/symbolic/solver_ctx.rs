//! The solver shared by the states of one exploration, with its query count and time, and the
//! exploration's deadline that no query may run past.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};
use symex_expr::Term;
use symex_solver::{SatResult, Solver, SolverConfig};

/// What the solver is shared as: one per exploration (Z3 contexts are per thread).
pub struct SolverCtx {
    pub solver: Box<dyn Solver>,
    /// Queries sent to the solver chain.
    pub queries: u64,
    /// Time spent in them.
    pub time: Duration,
    /// The time limit of one query (`--solver-timeout`).
    query_timeout: Option<Duration>,
    /// When the whole exploration must stop (`--max-time`): no query may run past it.
    pub deadline: Option<Instant>,
    /// The limit currently set on the solver, when lowered to meet the deadline.
    lowered: Option<Duration>,
    /// Whether a read at a symbolic offset of an object above [`super::SELECT_LIMIT`] bytes (up to
    /// [`super::MUX_LIMIT`]) is one multiplexer term rather than a fork per offset. Off where formulas
    /// are merged paths already (bounded model checking), whose terms it would multiply.
    pub large_select: bool,
    /// A bare Z3 that confirms every answer the domain finds without the solver (bounds, order), when
    /// the environment sets [`CHECK_SHORTCUTS`]: a disagreement is a soundness bug and panics.
    oracle: Option<Box<dyn Solver>>,
}

/// The environment variable that switches on the check of answers found without the solver.
pub const CHECK_SHORTCUTS: &str = "SYMEX_CHECK_SHORTCUTS";

impl SolverCtx {
    /// Shares `solver`, limiting each query to `query_timeout`.
    pub fn new(
        mut solver: Box<dyn Solver>,
        query_timeout: Option<Duration>,
    ) -> Rc<RefCell<SolverCtx>> {
        solver.set_timeout(query_timeout);
        Rc::new(RefCell::new(SolverCtx {
            solver,
            queries: 0,
            time: Duration::ZERO,
            query_timeout,
            deadline: None,
            lowered: None,
            large_select: true,
            oracle: std::env::var_os(CHECK_SHORTCUTS)
                .is_some_and(|v| !v.is_empty() && v != "0")
                .then(|| SolverConfig::bare().build()),
        }))
    }

    /// Lowers the solver's time limit so that a query ends by the deadline; `false` when it has passed.
    fn meet_deadline(&mut self) -> bool {
        let Some(d) = self.deadline else { return true };
        let left = d.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        if self.query_timeout.is_none_or(|q| left < q) {
            self.solver.set_timeout(Some(left));
            self.lowered = Some(left);
        } else if self.lowered.take().is_some() {
            self.solver.set_timeout(self.query_timeout);
        }
        true
    }

    pub(super) fn check(&mut self, q: &[Term]) -> SatResult {
        if !self.meet_deadline() {
            return SatResult::Unknown(symex_solver::Unknown("the time limit was reached".into()));
        }
        let t = Instant::now();
        let r = self.solver.check(q);
        self.queries += 1;
        self.time += t.elapsed();
        r
    }

    /// Whether answers found without the solver are to be confirmed ([`CHECK_SHORTCUTS`]).
    pub(super) fn checks_shortcuts(&self) -> bool {
        self.oracle.is_some()
    }

    /// Asks the bare Z3 whether `q` is satisfiable and panics when it says otherwise than `sat`, which
    /// `by` found without the solver. The query is not counted: the exploration runs as it would unchecked.
    pub(super) fn confirm_shortcut(&mut self, q: &[Term], sat: bool, by: &str) {
        let Some(oracle) = self.oracle.as_mut() else {
            return;
        };
        if let Ok(z3) = oracle.check(q).is_sat() {
            assert_eq!(
                z3,
                sat,
                "{CHECK_SHORTCUTS}: {by} says sat={sat}, Z3 says sat={z3} for\n{}",
                symex_expr::to_smtlib2(q)
            );
        }
    }
}
