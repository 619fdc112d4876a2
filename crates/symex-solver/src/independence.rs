//! Constraint independence (KLEE's `IndependentSolver`): the constraints are split into
//! groups that share no variable or function, each group is solved on its own (so the
//! caches below see small, recurring groups), and the models are merged.

use std::sync::Arc;
use std::time::Instant;

use rustc_hash::{FxHashMap, FxHashSet};
use symex_expr::{visit, Func, Model, Op, Term};

use crate::key::normalized;
use crate::solver::{SatResult, Solver};
use crate::stats::LayerStats;

/// A symbol a constraint depends on.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Symbol {
    Var(u64),
    Func(Func),
}

const SYMBOL_CACHE_LIMIT: usize = 1 << 18;

/// The independence layer.
pub struct Independence<S> {
    inner: S,
    /// Symbols of each constraint seen, by term id (ids are never reused).
    symbols: FxHashMap<u64, Arc<[Symbol]>>,
    stats: LayerStats,
}

impl<S: Solver> Independence<S> {
    /// The layer below.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The layer below, mutably.
    pub fn inner_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// Slices queries before passing them to `inner`.
    pub fn new(inner: S) -> Independence<S> {
        Independence {
            inner,
            symbols: FxHashMap::default(),
            stats: LayerStats::new("independence"),
        }
    }

    fn symbols_of(&mut self, c: &Term) -> Arc<[Symbol]> {
        if let Some(s) = self.symbols.get(&c.id()) {
            return s.clone();
        }
        if self.symbols.len() > SYMBOL_CACHE_LIMIT {
            self.symbols.clear();
        }
        let mut syms = Vec::new();
        visit::postorder(std::slice::from_ref(c), |t| match t.op() {
            Op::Var(_) => syms.push(Symbol::Var(t.id())),
            Op::Apply(f) => syms.push(Symbol::Func(*f)),
            _ => {}
        });
        syms.sort_unstable_by_key(|s| match s {
            Symbol::Var(id) => (0, *id, ""),
            Symbol::Func(f) => (1, 0, f.name()),
        });
        syms.dedup();
        let syms: Arc<[Symbol]> = syms.into();
        self.symbols.insert(c.id(), syms.clone());
        syms
    }

    /// Groups of constraints connected by shared symbols, in order of first constraint.
    fn components(&mut self, constraints: &[Term]) -> Vec<Vec<Term>> {
        let mut uf = UnionFind::default();
        let mut symbol_node: FxHashMap<Symbol, usize> = FxHashMap::default();
        let mut constraint_node = Vec::with_capacity(constraints.len());
        for c in constraints {
            let me = uf.add();
            constraint_node.push(me);
            for s in self.symbols_of(c).iter() {
                let n = *symbol_node.entry(*s).or_insert_with(|| uf.add());
                uf.union(me, n);
            }
        }
        let mut group_of_root: FxHashMap<usize, usize> = FxHashMap::default();
        let mut groups: Vec<Vec<Term>> = Vec::new();
        for (c, node) in constraints.iter().zip(constraint_node) {
            let root = uf.find(node);
            let g = *group_of_root.entry(root).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(c.clone());
        }
        groups
    }
}

impl<S: Solver> Solver for Independence<S> {
    fn check(&mut self, constraints: &[Term]) -> SatResult {
        let start = Instant::now();
        let constraints = normalized(constraints);
        let groups = self.components(&constraints);
        let result = if groups.len() <= 1 {
            self.stats.calls += 1;
            self.inner.check(&constraints)
        } else {
            self.solve_groups(&groups)
        };
        self.stats.record(start.elapsed(), &result);
        result
    }

    delegate_to_inner!(stats, inner);
}

impl<S: Solver> Independence<S> {
    fn solve_groups(&mut self, groups: &[Vec<Term>]) -> SatResult {
        self.stats.hits += 1; // a query that was actually sliced
        let mut merged = Model::new();
        let mut unknown = None;
        for g in groups {
            self.stats.calls += 1;
            match self.inner.check(g) {
                SatResult::Sat(m) => self.merge_group(&mut merged, g, &m),
                SatResult::Unsat => return SatResult::Unsat,
                // Another group may still be unsatisfiable, which settles the query.
                SatResult::Unknown(u) => unknown = Some(u),
            }
        }
        match unknown {
            Some(u) => SatResult::Unknown(u),
            None => {
                merged.shrink_to_fit(); // kept by the state that asked, and by the caches
                SatResult::Sat(Arc::new(merged))
            }
        }
    }
}

impl<S: Solver> Independence<S> {
    /// Adds to `merged` the assignments of `m` to the symbols of group `g` only: a layer below may
    /// answer a group with a model of a larger set (the counterexample cache reuses models of supersets),
    /// whose values for other groups' symbols would overwrite theirs.
    fn merge_group(&mut self, merged: &mut Model, g: &[Term], m: &Model) {
        let mut own: FxHashSet<Symbol> = FxHashSet::default();
        for c in g {
            own.extend(self.symbols_of(c).iter().copied());
        }
        for (var, value) in m.vars() {
            if own.contains(&Symbol::Var(var.id())) {
                merged.insert(var, value.clone());
            }
        }
        for (f, interp) in m.funcs() {
            if own.contains(&Symbol::Func(f)) {
                merged.insert_func(f, interp.clone());
            }
        }
    }
}

#[derive(Default)]
struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn add(&mut self) -> usize {
        self.parent.push(self.parent.len());
        self.parent.len() - 1
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra] = rb;
        }
    }
}
