//! The validating layer (KLEE's `ValidatingSolver`), for debugging the chain: every query
//! goes both to the chain below and to a bare oracle backend; the sat/unsat answers must
//! agree and every model must satisfy the constraints under our evaluator. A disagreement
//! is recorded with the query in SMT-LIB, reported on stderr, and the oracle's answer is
//! returned.

use std::time::{Duration, Instant};

use symex_expr::{to_smtlib2, Term};

use crate::solver::{SatResult, Solver};
use crate::stats::LayerStats;

/// One disagreement between the chain and the oracle.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// What went wrong.
    pub what: String,
    /// The query, as an SMT-LIB script.
    pub query: String,
}

/// The validating layer.
pub struct Validating<S, O> {
    inner: S,
    oracle: O,
    mismatches: Vec<Mismatch>,
    stats: LayerStats,
}

impl<S: Solver, O: Solver> Validating<S, O> {
    /// The chain being validated.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// Cross-checks `inner` against `oracle`.
    pub fn new(inner: S, oracle: O) -> Validating<S, O> {
        Validating {
            inner,
            oracle,
            mismatches: Vec::new(),
            stats: LayerStats::new("validating"),
        }
    }

    /// The disagreements seen so far.
    pub fn mismatches(&self) -> &[Mismatch] {
        &self.mismatches
    }

    fn complain(&mut self, what: String, constraints: &[Term]) {
        let query = to_smtlib2(constraints);
        eprintln!("symex-solver: validation failed: {what}\n{query}");
        self.mismatches.push(Mismatch { what, query });
        self.stats.mismatches += 1;
    }

    fn validate(&mut self, constraints: &[Term], got: &SatResult, expected: &SatResult) {
        if let SatResult::Sat(m) = got {
            match m.satisfies(constraints) {
                Ok(true) => {}
                Ok(false) => self.complain(
                    "the model does not satisfy the constraints".into(),
                    constraints,
                ),
                Err(e) => self.complain(format!("the model cannot be evaluated: {e}"), constraints),
            }
        }
        match (got.is_sat(), expected.is_sat()) {
            (Ok(a), Ok(b)) if a != b => self.complain(
                format!("the chain says sat={a}, the oracle says sat={b}"),
                constraints,
            ),
            _ => {}
        }
    }
}

impl<S: Solver, O: Solver> Solver for Validating<S, O> {
    fn check(&mut self, constraints: &[Term]) -> SatResult {
        let start = Instant::now();
        self.stats.calls += 1;
        let got = self.inner.check(constraints);
        let expected = self.oracle.check(constraints);
        let before = self.mismatches.len();
        self.validate(constraints, &got, &expected);
        let result = if self.mismatches.len() > before || matches!(got, SatResult::Unknown(_)) {
            expected
        } else {
            got
        };
        self.stats.record(start.elapsed(), &result);
        result
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        self.inner.collect_stats(out);
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
        self.oracle.set_timeout(timeout);
    }
}
