//! The location graph: strongly connected components (Tarjan), in topological order, and
//! shortest paths between locations.

use crate::its::Its;
use std::collections::VecDeque;

/// The SCCs of the graph of `its` restricted to the transitions `ts` (indices), each a
/// sorted list of locations, sources before targets (topological order).
pub fn sccs(its: &Its, ts: &[usize]) -> Vec<Vec<usize>> {
    let n = its.locations.len();
    let mut succ = vec![Vec::new(); n];
    for &i in ts {
        let t = &its.transitions[i];
        for (target, _) in &t.targets {
            succ[t.source].push(*target);
        }
    }
    components(succ)
}

/// The SCCs of the graph with successor lists `succ` (nodes `0..succ.len()`), each
/// sorted, sources before targets (topological order).
pub fn components(succ: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let n = succ.len();
    let mut state = Tarjan {
        succ,
        index: vec![usize::MAX; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if state.index[v] == usize::MAX {
            state.visit(v);
        }
    }
    // Tarjan emits sinks first.
    state.out.reverse();
    state.out
}

struct Tarjan {
    succ: Vec<Vec<usize>>,
    index: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
    out: Vec<Vec<usize>>,
}

impl Tarjan {
    /// Iterative, so that long chains of locations do not overflow the call stack.
    fn visit(&mut self, root: usize) {
        let mut work = vec![(root, 0usize)];
        self.enter(root);
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k < self.succ[v].len() {
                let w = self.succ[v][*k];
                *k += 1;
                if self.index[w] == usize::MAX {
                    self.enter(w);
                    work.push((w, 0));
                } else if self.on_stack[w] {
                    self.low[v] = self.low[v].min(self.index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                self.low[u] = self.low[u].min(self.low[v]);
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                loop {
                    let w = self.stack.pop().expect("Tarjan stack");
                    self.on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                comp.sort_unstable();
                self.out.push(comp);
            }
        }
    }

    fn enter(&mut self, v: usize) {
        self.index[v] = self.next;
        self.low[v] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
    }
}

/// The transitions of `ts` with source and every target in `locs`.
pub fn inside(its: &Its, ts: &[usize], locs: &[usize]) -> Vec<usize> {
    ts.iter()
        .copied()
        .filter(|&i| {
            let t = &its.transitions[i];
            locs.contains(&t.source) && t.targets.iter().all(|(l, _)| locs.contains(l))
        })
        .collect()
}

/// A shortest path of transitions from `from` to `to` (empty when they are equal).
pub fn shortest_path(its: &Its, from: usize, to: usize) -> Option<Vec<usize>> {
    let mut prev: Vec<Option<usize>> = vec![None; its.locations.len()];
    let mut seen = vec![false; its.locations.len()];
    seen[from] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(k) = queue.pop_front() {
        if k == to {
            let mut path = Vec::new();
            let mut at = to;
            while at != from {
                let t = prev[at]?;
                path.push(t);
                at = its.transitions[t].source;
            }
            path.reverse();
            return Some(path);
        }
        for (i, t) in its.transitions.iter().enumerate() {
            if t.source == k && !seen[t.target()] {
                seen[t.target()] = true;
                prev[t.target()] = Some(i);
                queue.push_back(t.target());
            }
        }
    }
    None
}
