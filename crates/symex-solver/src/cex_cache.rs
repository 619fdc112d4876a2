//! The counterexample cache (KLEE's `CexCachingSolver`). It remembers constraint sets with
//! their answers and answers a new set `Q` without the solver when
//!
//! * a remembered unsatisfiable set is a subset of `Q` (then `Q` is unsatisfiable),
//! * a remembered satisfiable set is a superset of `Q` (its model satisfies `Q`),
//! * the model of a remembered set sharing most constraints with `Q` (typically the path
//!   condition without the new branch condition), or the all-defaults model, satisfies `Q`
//!   — checked by evaluation, so a reused model is always a model.

use std::sync::Arc;
use std::time::Instant;

use rustc_hash::FxHashMap;
use symex_expr::{Model, Term};

use crate::key::{normalized, query_key, QueryKey};
use crate::solver::{SatResult, Solver};
use crate::stats::LayerStats;

/// Entries kept before the cache is emptied.
const LIMIT: usize = 1 << 16;
/// Entries remembered per constraint (older ones are only missed, never wrong).
const PER_CONSTRAINT: usize = 64;
/// Models tried by evaluation per lookup.
const TRIALS: usize = 4;

struct Entry {
    key: QueryKey,
    /// `None`: unsatisfiable.
    model: Option<Arc<Model>>,
}

/// The counterexample cache layer.
pub struct CexCache<S> {
    inner: S,
    entries: Vec<Entry>,
    exact: FxHashMap<QueryKey, usize>,
    by_constraint: FxHashMap<u64, Vec<usize>>,
    stats: LayerStats,
}

impl<S: Solver> CexCache<S> {
    /// The layer below.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The layer below, mutably.
    pub fn inner_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Answers from remembered models where it can, asks `inner` otherwise.
    pub fn new(inner: S) -> CexCache<S> {
        CexCache {
            inner,
            entries: Vec::new(),
            exact: FxHashMap::default(),
            by_constraint: FxHashMap::default(),
            stats: LayerStats::new("cex-cache"),
        }
    }

    fn remember(&mut self, key: QueryKey, model: Option<Arc<Model>>) {
        if self.exact.contains_key(&key) {
            return;
        }
        if self.entries.len() >= LIMIT {
            self.entries.clear();
            self.exact.clear();
            self.by_constraint.clear();
        }
        let i = self.entries.len();
        for c in &key {
            let list = self.by_constraint.entry(*c).or_default();
            if list.len() >= PER_CONSTRAINT {
                list.remove(0);
            }
            list.push(i);
        }
        self.exact.insert(key.clone(), i);
        self.entries.push(Entry { key, model });
    }

    fn lookup(&self, key: &QueryKey, constraints: &[Term]) -> Option<SatResult> {
        if let Some(&i) = self.exact.get(key) {
            return Some(answer(&self.entries[i]));
        }
        // How many of the query's constraints each remembered set contains.
        let mut shared: FxHashMap<usize, usize> = FxHashMap::default();
        for c in key {
            for &i in self.by_constraint.get(c).map(Vec::as_slice).unwrap_or(&[]) {
                *shared.entry(i).or_default() += 1;
            }
        }
        let mut candidates: Vec<(usize, usize)> = Vec::new();
        for (&i, &n) in &shared {
            let e = &self.entries[i];
            match &e.model {
                None if n == e.key.len() => return Some(SatResult::Unsat),
                Some(m) if n == key.len() => return Some(SatResult::Sat(m.clone())),
                Some(_) => candidates.push((n, i)),
                None => {}
            }
        }
        // Most shared first; among equals the most recent.
        candidates.sort_unstable_by(|a, b| b.cmp(a));
        let models = candidates
            .iter()
            .take(TRIALS)
            .filter_map(|&(_, i)| self.entries[i].model.clone());
        for m in models.chain(std::iter::once(Arc::new(Model::new()))) {
            if m.satisfies(constraints) == Ok(true) {
                return Some(SatResult::Sat(m));
            }
        }
        None
    }
}

fn answer(e: &Entry) -> SatResult {
    match &e.model {
        Some(m) => SatResult::Sat(m.clone()),
        None => SatResult::Unsat,
    }
}

impl<S: Solver> Solver for CexCache<S> {
    fn check(&mut self, constraints: &[Term]) -> SatResult {
        let start = Instant::now();
        let key = query_key(constraints);
        let constraints = normalized(constraints);
        let result = match self.lookup(&key, &constraints) {
            Some(r) => {
                self.stats.hits += 1;
                if let SatResult::Sat(m) = &r {
                    self.remember(key, Some(m.clone()));
                }
                r
            }
            None => {
                self.stats.calls += 1;
                let r = self.inner.check(&constraints);
                match &r {
                    SatResult::Sat(m) => self.remember(key, Some(m.clone())),
                    SatResult::Unsat => self.remember(key, None),
                    SatResult::Unknown(_) => {}
                }
                r
            }
        };
        self.stats.record(start.elapsed(), &result);
        result
    }

    delegate_to_inner!(stats, inner);
}
