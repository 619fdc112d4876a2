//! KoAT's result variable graph (RVG) of one SCC of the location graph: a node `(t, v)`
//! stands for the value of program variable `v` after transition `t`, and `(t', w) →
//! (t, v)` when `t'` ends where `t` starts and the local size bound of `v` after `t`
//! mentions `w` before `t` (the update's variables, and those of the guard atoms that
//! bound its temporaries). Size bounds per node, SCC by SCC of this graph in topological
//! order (`complexity::Ctx::rvg_component`), keep apart what one SCC-wide bound per
//! variable mixes up: `D := B` at an outer loop's head and `D + 1` in its inner loop are
//! different nodes, so the inner loop's entry size of `D` needs no runtime bound of the
//! inner loop itself (T2's `elmhes`).

use crate::its::{Its, Transition};
use crate::local_size::guard_constant;
use std::collections::BTreeSet;

/// The RVG of the transitions `inside` of one SCC.
pub struct Rvg {
    /// The SCC's transitions; node `k·n + v` is `(inside[k], v)`.
    pub inside: Vec<usize>,
    /// The number of program variables.
    pub n: usize,
    /// Per position `k`: the positions of the transitions of `inside` ending where
    /// `inside[k]` starts.
    pub preds: Vec<Vec<usize>>,
    /// Per node: the variables before the transition its local size bound mentions.
    pub deps: Vec<BTreeSet<usize>>,
    /// The SCCs of the graph, sources first, and each node's SCC.
    pub comps: Vec<Vec<usize>>,
    pub comp_of: Vec<usize>,
    /// Per SCC: whether it has a cycle (more than one node, or a node on a self-loop).
    pub cyclic: Vec<bool>,
}

impl Rvg {
    /// Builds the graph; no solver involved.
    pub fn new(its: &Its, inside: &[usize]) -> Rvg {
        let n = its.arity();
        let ts: Vec<&Transition> = inside.iter().map(|&i| &its.transitions[i]).collect();
        let preds: Vec<Vec<usize>> = ts
            .iter()
            .map(|t| {
                (0..ts.len())
                    .filter(|&j| ts[j].target() == t.source)
                    .collect()
            })
            .collect();
        let deps: Vec<BTreeSet<usize>> = ts
            .iter()
            .flat_map(|t| (0..n).map(move |v| local_deps(t, n, v)))
            .collect();
        let mut succ = vec![Vec::new(); ts.len() * n];
        for (k, ps) in preds.iter().enumerate() {
            for v in 0..n {
                for &w in &deps[k * n + v] {
                    for &j in ps {
                        succ[j * n + w].push(k * n + v);
                    }
                }
            }
        }
        let comps = crate::graph::components(succ.clone());
        let mut comp_of = vec![0; ts.len() * n];
        for (c, nodes) in comps.iter().enumerate() {
            for &x in nodes {
                comp_of[x] = c;
            }
        }
        let cyclic = comps
            .iter()
            .map(|nodes| nodes.len() > 1 || succ[nodes[0]].contains(&nodes[0]))
            .collect();
        Rvg {
            inside: inside.to_vec(),
            n,
            preds,
            deps,
            comps,
            comp_of,
            cyclic,
        }
    }

    /// The position of transition `t` in `inside`.
    pub fn position(&self, t: usize) -> Option<usize> {
        self.inside.iter().position(|&i| i == t)
    }

    /// The SCCs the SCC `c` depends on (itself included), in topological order, stopping
    /// at those `done` accepts (already bounded).
    pub fn ancestors(&self, c: usize, done: &dyn Fn(usize) -> bool) -> Vec<usize> {
        let mut seen = BTreeSet::from([c]);
        let mut work = vec![c];
        while let Some(c) = work.pop() {
            for &x in &self.comps[c] {
                let (k, v) = (x / self.n, x % self.n);
                for &w in &self.deps[k * self.n + v] {
                    for &j in &self.preds[k] {
                        let d = self.comp_of[j * self.n + w];
                        if !done(d) && seen.insert(d) {
                            work.push(d);
                        }
                    }
                }
            }
        }
        // Tarjan's topological order is the order of the indices.
        seen.into_iter().collect()
    }

    /// Whether the SCC `c` depends on the SCC `d` (or is `d`).
    pub fn depends_on(&self, c: usize, d: usize) -> bool {
        // Topological order: nothing before `d` depends on it.
        c >= d && self.ancestors(c, &|x| x < d).contains(&d)
    }

    /// The variables of node `(k, v)`'s local size bound that come from its own SCC.
    pub fn cycle_vars(&self, k: usize, v: usize) -> BTreeSet<usize> {
        let c = self.comp_of[k * self.n + v];
        self.deps[k * self.n + v]
            .iter()
            .copied()
            .filter(|&w| {
                self.preds[k]
                    .iter()
                    .any(|&j| self.comp_of[j * self.n + w] == c)
            })
            .collect()
    }
}

/// The program variables before `t` that the size of `v` after `t` depends on: the
/// update's variables and, for a temporary, the variables of the guard atoms mentioning
/// it (what [`crate::local_size::temp_bound`] bounds it by); not those the guard bounds
/// by constants ([`guard_constant`]).
pub fn local_deps(t: &Transition, n: usize, v: usize) -> BTreeSet<usize> {
    poly_deps(t, n, &t.update()[v])
}

/// As [`local_deps`] for any polynomial `p` over `t`'s variables.
pub fn poly_deps(t: &Transition, n: usize, p: &crate::poly::Poly) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    for w in p.vars() {
        if w < n {
            out.insert(w);
            continue;
        }
        for a in t.guard.iter().filter(|a| a.poly.vars().contains(&w)) {
            out.extend(a.poly.vars().into_iter().filter(|&u| u < n));
        }
    }
    out.retain(|&w| guard_constant(t, w).is_none());
    out
}
