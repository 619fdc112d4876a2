//! The query cache (KLEE's `CachingSolver`): answers a constraint set seen before, exactly.
//! Thanks to hash-consing a set is its sorted term ids, so a lookup hashes a few integers.

use std::time::Instant;

use rustc_hash::FxHashMap;
use symex_expr::Term;

use crate::key::{query_key, QueryKey};
use crate::solver::{SatResult, Solver};
use crate::stats::LayerStats;

/// Entries kept before the cache is emptied (a crude but predictable memory bound).
const LIMIT: usize = 1 << 17;

/// The query cache layer. `Unknown` answers are not cached (a later try may succeed).
pub struct QueryCache<S> {
    inner: S,
    answers: FxHashMap<QueryKey, SatResult>,
    stats: LayerStats,
}

impl<S: Solver> QueryCache<S> {
    /// The layer below.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The layer below, mutably.
    pub fn inner_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Caches the answers of `inner`.
    pub fn new(inner: S) -> QueryCache<S> {
        QueryCache {
            inner,
            answers: FxHashMap::default(),
            stats: LayerStats::new("query-cache"),
        }
    }
}

impl<S: Solver> Solver for QueryCache<S> {
    fn check(&mut self, constraints: &[Term]) -> SatResult {
        let start = Instant::now();
        let key = query_key(constraints);
        let result = match self.answers.get(&key) {
            Some(r) => {
                self.stats.hits += 1;
                r.clone()
            }
            None => {
                self.stats.calls += 1;
                let r = self.inner.check(constraints);
                if !matches!(r, SatResult::Unknown(_)) {
                    if self.answers.len() >= LIMIT {
                        self.answers.clear();
                    }
                    self.answers.insert(key, r.clone());
                }
                r
            }
        };
        self.stats.record(start.elapsed(), &result);
        result
    }

    delegate_to_inner!(stats, inner);
}
