//! Slicing: a program variable that no guard and no cost depends on — directly or
//! through the updates of variables they depend on — cannot change which transitions a
//! run takes or what they cost. Its updates are replaced by the identity, so the provers
//! neither synthesise ranking functions over it nor need its size bound; the runs (as
//! sequences of transitions with their costs) stay exactly the same.

use crate::its::Its;
use crate::poly::Poly;

/// The program variables some guard or cost depends on, closed under the updates.
pub fn relevant_variables(its: &Its) -> Vec<bool> {
    let n = its.arity();
    let mut relevant = vec![false; n];
    let mut work = Vec::new();
    let mark = |v: usize, relevant: &mut [bool], work: &mut Vec<usize>| {
        if v < n && !relevant[v] {
            relevant[v] = true;
            work.push(v);
        }
    };
    for t in &its.transitions {
        for v in t
            .guard
            .iter()
            .flat_map(|a| a.poly.vars())
            .chain(t.cost.vars())
        {
            mark(v, &mut relevant, &mut work);
        }
    }
    while let Some(v) = work.pop() {
        for t in &its.transitions {
            for (_, update) in &t.targets {
                for w in update[v].vars() {
                    mark(w, &mut relevant, &mut work);
                }
            }
        }
    }
    relevant
}

/// Replaces the updates of irrelevant variables by the identity.
pub fn slice(its: &Its) -> Its {
    let relevant = relevant_variables(its);
    let mut out = its.clone();
    for t in &mut out.transitions {
        for (_, update) in &mut t.targets {
            for (v, u) in update.iter_mut().enumerate() {
                if !relevant[v] {
                    *u = Poly::var(v);
                }
            }
        }
    }
    out
}
