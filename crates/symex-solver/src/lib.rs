//! The `Solver` trait and its layers around Z3.
//!
//! A query is a path condition (a slice of Boolean [`Term`]s, read as their conjunction)
//! plus a question. Every question — satisfiability, validity of a condition, a model, the
//! value(s) of a term, a term's unsigned range — is derived from one core method,
//! [`Solver::check`], so each layer is a small decorator that intercepts `check` (KLEE's
//! solver chain, as a Rust trait):
//!
//! * [`Z3Solver`]: the backend (per-context translation cache, timeouts as `Unknown`,
//!   fresh or incremental use of Z3);
//! * [`Independence`]: splits a query into groups of constraints sharing no symbol;
//! * [`QueryCache`]: answers a constraint set seen before;
//! * [`CexCache`]: reuses models and unsat sets of subsets/supersets (checked by evaluation);
//! * [`Validating`]: cross-checks answers and models against a bare backend (debugging);
//! * [`QueryLog`]: writes the queries as SMT-LIB2;
//! * [`Timed`]: statistics of the chain below it (every layer also keeps its own
//!   [`LayerStats`]: queries, hits, time).
//!
//! [`SolverConfig`] builds a chain with each layer switched on or off.
//!
//! Solvers use the calling thread's Z3 context and are not `Send`; terms are, so build one
//! solver per thread and share terms freely.
//!
//! ```
//! use symex_expr::{Sort, Term};
//! use symex_solver::{Solver, SolverConfig, Validity};
//!
//! let x = Term::var("x", Sort::bv(8));
//! let pc = vec![x.bvugt(&Term::bv(10, 8))];
//! let mut solver = SolverConfig::default().build();
//! assert_eq!(solver.may_be_true(&pc, &x.eq(&Term::bv(11, 8))), Ok(true));
//! assert_eq!(solver.must_be_true(&pc, &x.bvuge(&Term::bv(11, 8))), Ok(true));
//! assert_eq!(solver.validity(&pc, &x.bvult(&Term::bv(20, 8))), Ok(Validity::Both));
//! assert_eq!(solver.unsigned_range(&pc, &x), Ok(Some((11, 255))));
//! let model = solver.model(&pc).unwrap().unwrap();
//! assert_eq!(model.eval_bool(&pc[0]), Ok(true));
//! ```

#[macro_use]
mod layer;
mod cex_cache;
mod config;
pub mod halt;
mod independence;
mod key;
mod log;
mod query_cache;
mod solver;
mod stats;
mod validating;
mod z3;

pub use crate::cex_cache::CexCache;
pub use crate::config::{set_default_rlimit, SolverConfig};
pub use crate::independence::Independence;
pub use crate::log::QueryLog;
pub use crate::query_cache::QueryCache;
pub use crate::solver::{SatResult, Solver, Unknown, Validity};
pub use crate::stats::{LayerStats, Timed};
pub use crate::validating::{Mismatch, Validating};
pub use crate::z3::{Z3Mode, Z3Solver};
pub use symex_expr::{Model, Term, Value};
