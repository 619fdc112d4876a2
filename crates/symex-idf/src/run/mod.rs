//! The concrete executor of `symex verify --run`: runs `main` of a checked program on concrete
//! values with run-time checks of everything the verifier claims to have proved — assertions,
//! preconditions at calls, postconditions (with `old`) at returns, loop invariants, `join`,
//! permissions (a field access needs the location in the running activation's permissions),
//! predicate bodies at `close`/`open`/`opening`, `untouched`, and termination of pure methods.
//!
//! It is written separately from the symbolic verifier ([`crate::verify`]) and shares only the
//! front end, so that it can serve as the independent oracle of the soundness fuzzer: a program
//! the verifier accepts must run here without a violation.
//!
//! Semantics (the paper gives the symbolic rules only; this is the concrete reading they imply):
//! - A call moves the footprint of the callee's precondition (the locations its `acc`s and
//!   predicate instances cover, evaluated in the caller's state) from the caller to the callee;
//!   at the return the footprint of the postcondition moves back, and what the callee still
//!   holds beyond it is lost, as in the paper's exec rule for calls.
//! - The postcondition is checked in the callee's final heap with the parameters bound to the
//!   values the caller passed (callers assume `post[args/params]`, Figure 8), `old(e)` in the
//!   heap at entry with the permissions the precondition transferred.
//! - Ghost statements have no effect at run time (§2); predicates are transparent: holding a
//!   predicate instance is holding its body's footprint with its body true. `close`, `open`,
//!   `opening` check that the body holds; transferring an instance checks it too.
//! - A pure method runs with the footprint of its precondition as its readable locations; a
//!   pure call that recurs with the same receiver, arguments and footprint (the heap cannot
//!   change during an expression) never terminates, which §3.6 promises cannot happen.
//! - A loop hands the footprint of its invariant to the iterations; after the loop the rest of
//!   the activation's permissions come back (the verifier's frame rule for loops).
mod assertion;
mod eval;
mod exec;
pub mod heap;

use crate::ir::{Program, Span};
pub use heap::Value;

/// Limits of a run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Statements executed plus pure calls made before the run stops (exit 3).
    pub max_steps: u64,
    /// Nesting of mutator calls and of pure calls.
    pub max_depth: usize,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            max_steps: 10_000_000,
            max_depth: 2_000,
        }
    }
}

/// A run-time check that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// `Class.member` (`Class.Class` for a constructor) or `main`: whose obligation it was.
    pub member: String,
    /// What was checked: `assertion`, `precondition of A.m`, `postcondition`, `permission`, …
    pub check: String,
    pub message: String,
    /// Where: the statement, call or failing part of a contract.
    pub span: Span,
    /// Further details (the part of a contract that failed, values).
    pub notes: Vec<String>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `main` ran to its end.
    Completed,
    /// An `assume` was false: the run is outside what the program considers (not a violation).
    Blocked(Span),
    Violation(Box<Violation>),
    /// A limit of the executor (steps, depth, integers beyond 128 bits): inconclusive.
    Limit(String, Span),
}

#[derive(Clone, Debug)]
pub struct RunReport {
    pub outcome: Outcome,
    /// Statements executed plus pure calls made.
    pub steps: u64,
    /// Mutator calls made.
    pub calls: u64,
}

/// Why execution stopped before the end of `main`.
#[derive(Debug)]
pub(crate) enum Stop {
    Violation(Box<Violation>),
    Limit(String, Span),
    Blocked(Span),
}

pub(crate) type R<T> = Result<T, Stop>;

/// Runs `main` of a checked program (no `main`: nothing runs, the run completes).
pub fn run_main(program: &Program, src: &str, config: RunConfig) -> RunReport {
    crate::verify::on_large_stack("idf-run", || {
        let mut machine = exec::Machine::new(program, src, config);
        let outcome = match &program.main {
            None => Outcome::Completed,
            Some((body, _)) => match machine.run_main(body) {
                Ok(()) => Outcome::Completed,
                Err(Stop::Violation(v)) => Outcome::Violation(v),
                Err(Stop::Limit(m, s)) => Outcome::Limit(m, s),
                Err(Stop::Blocked(s)) => Outcome::Blocked(s),
            },
        };
        RunReport {
            outcome,
            steps: machine.steps(),
            calls: machine.calls,
        }
    })
}

/// Parses, checks and runs a program (`symex verify --run`): `Err` for a syntax or type error.
pub fn run_source(src: &str, config: RunConfig) -> Result<RunReport, crate::Diagnostic> {
    let program = crate::front_end(src)?;
    Ok(run_main(&program, src, config))
}

/// The source text of a span on one line.
pub(crate) fn text(src: &str, span: Span) -> String {
    let s = src.get(span.start..span.end).unwrap_or("?");
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
