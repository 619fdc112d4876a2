//! The query log: every query that passes, as a runnable SMT-LIB2 script (each in its own
//! `push`/`pop` scope) followed by the answer and the time taken as comments. Feed the file
//! to `z3` to replay the queries.

use std::io::Write;
use std::time::{Duration, Instant};

use symex_expr::{to_smtlib2, Term};

use crate::solver::{SatResult, Solver};
use crate::stats::LayerStats;

/// The logging layer.
pub struct QueryLog<S> {
    inner: S,
    out: Box<dyn Write>,
    stats: LayerStats,
    failed: bool,
}

impl<S: Solver> QueryLog<S> {
    /// The layer below.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The layer below, mutably.
    pub fn inner_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Logs the queries passed to `inner` into `out`.
    pub fn new(inner: S, out: Box<dyn Write>) -> QueryLog<S> {
        QueryLog {
            inner,
            out,
            stats: LayerStats::new("log"),
            failed: false,
        }
    }

    fn write(&mut self, constraints: &[Term], result: &SatResult, elapsed: Duration) {
        if self.failed {
            return;
        }
        let answer = match result {
            SatResult::Sat(_) => "sat".to_owned(),
            SatResult::Unsat => "unsat".to_owned(),
            SatResult::Unknown(u) => format!("unknown ({})", u.0),
        };
        let text = format!(
            "; query {}\n(push 1)\n{}(pop 1)\n; answer: {answer}, {:.6} s\n\n",
            self.stats.queries,
            to_smtlib2(constraints),
            elapsed.as_secs_f64()
        );
        if let Err(e) = self
            .out
            .write_all(text.as_bytes())
            .and_then(|_| self.out.flush())
        {
            // Logging is a debugging aid: say it once and go on solving.
            eprintln!("symex-solver: query log disabled: {e}");
            self.failed = true;
        }
    }
}

impl<S: Solver> Solver for QueryLog<S> {
    fn check(&mut self, constraints: &[Term]) -> SatResult {
        let start = Instant::now();
        self.stats.calls += 1;
        let r = self.inner.check(constraints);
        let elapsed = start.elapsed();
        self.write(constraints, &r, elapsed);
        self.stats.record(elapsed, &r);
        r
    }

    delegate_to_inner!(stats, inner);
}
