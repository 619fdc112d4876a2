//! Statistics: per-layer counters, and the `Timed` layer that measures whatever is below it.

use std::fmt;
use std::time::{Duration, Instant};

use symex_expr::Term;

use crate::solver::{SatResult, Solver};

/// What one layer saw.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LayerStats {
    /// The layer's name.
    pub layer: &'static str,
    /// Queries that reached this layer.
    pub queries: u64,
    /// Queries this layer answered itself (cache hits); for the independence layer, the
    /// queries it split into several groups.
    pub hits: u64,
    /// Queries passed on to the next layer (a slicing layer may pass on several per query).
    pub calls: u64,
    /// Answers: satisfiable, unsatisfiable, unknown.
    pub sat: u64,
    /// See `sat`.
    pub unsat: u64,
    /// See `sat`.
    pub unknown: u64,
    /// Wall time spent in this layer and below.
    pub time: Duration,
    /// Disagreements found (the validating layer).
    pub mismatches: u64,
}

impl LayerStats {
    /// Zeroed statistics of the layer `layer`.
    pub fn new(layer: &'static str) -> LayerStats {
        LayerStats {
            layer,
            ..LayerStats::default()
        }
    }

    /// Counts one answered query that took `elapsed`.
    pub fn record(&mut self, elapsed: Duration, result: &SatResult) {
        self.queries += 1;
        self.time += elapsed;
        match result {
            SatResult::Sat(_) => self.sat += 1,
            SatResult::Unsat => self.unsat += 1,
            SatResult::Unknown(_) => self.unknown += 1,
        }
    }

    /// Fraction of queries answered here.
    pub fn hit_rate(&self) -> f64 {
        if self.queries == 0 {
            0.0
        } else {
            self.hits as f64 / self.queries as f64
        }
    }
}

impl fmt::Display for LayerStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<12} queries {:>8}  hits {:>8} ({:>5.1}%)  passed on {:>8}  sat/unsat/unknown {}/{}/{}  time {:.3}s{}",
            self.layer,
            self.queries,
            self.hits,
            100.0 * self.hit_rate(),
            self.calls,
            self.sat,
            self.unsat,
            self.unknown,
            self.time.as_secs_f64(),
            if self.mismatches > 0 {
                format!("  MISMATCHES {}", self.mismatches)
            } else {
                String::new()
            }
        )
    }
}

/// A layer that counts the queries reaching it and the time spent below it. Put one on
/// top of the chain to see the total; it answers nothing itself.
pub struct Timed<S> {
    inner: S,
    stats: LayerStats,
}

impl<S: Solver> Timed<S> {
    /// The layer below.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The layer below, mutably.
    pub fn inner_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Measures `inner`, reporting under the name `name`.
    pub fn new(name: &'static str, inner: S) -> Timed<S> {
        Timed {
            inner,
            stats: LayerStats::new(name),
        }
    }
}

impl<S: Solver> Solver for Timed<S> {
    fn check(&mut self, constraints: &[Term]) -> SatResult {
        let start = Instant::now();
        let r = self.inner.check(constraints);
        self.stats.calls += 1;
        self.stats.record(start.elapsed(), &r);
        r
    }

    delegate_to_inner!(stats, inner);
}
