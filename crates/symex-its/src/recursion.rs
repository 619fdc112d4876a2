//! Recursion: a right-hand side `Com_k(f_1(ē_1), …, f_k(ē_k))` with k ≥ 2 starts k
//! computations, so a run of the ITS is a tree of transition uses and its cost is the sum of the
//! costs of all nodes (KoAT's format for programs with calls; Brockschmidt et al., "Analyzing
//! Runtime and Size Complexity of Integer Programs", TOPLAS 2016, Sect. 2).
//!
//! Every analysis here works on the **branch ITS**: each target of a transition becomes a
//! transition of its own ([`branches`]). A branch of a tree — the path from the root to a node —
//! is exactly a run of the branch ITS, which gives:
//!
//! * **termination**: a finitely branching tree is finite iff it has no infinite branch (König's
//!   lemma), so the recursive ITS terminates iff its branch ITS does — a YES and a NO both carry
//!   over;
//! * **sizes**: every node's values lie on a branch, so the branch ITS's size bounds hold;
//! * **lower bounds**: a branch is part of the tree, so a family of long runs of the branch ITS,
//!   every copy charged the full cost ([`Charge::Every`]), is a family of costly trees;
//! * **upper bounds** need counting in the tree: a transition runs as often as the tree uses it,
//!   not once per branch. In a *linear* recursion ([`is_linear`]: at most one target of each
//!   transition stays in the SCC of its source) each entry into an SCC unfolds inside it as a
//!   path, so the ranking arguments per entry of [`crate::complexity`] hold; a transition that
//!   leaves an SCC runs as often as its sibling inside it, and one on no cycle as often as its
//!   source is reached ([`crate::complexity::infer_tree`]). A *branching* recursion
//!   (`f(X) → Com_2(f(X−1), f(X−1))`) has no polynomial bound in general; where a linear family
//!   of the branch ITS goes round a transition with two copies that do the same, its trees are
//!   complete binary trees of depth `L` ([`exponential_family`]): `NON_POLY`.

use crate::its::{Its, Transition};
use crate::linear_lower_bound::{self, LinearFamily};
use crate::lower_bound;
use crate::poly::Poly;
use std::time::Instant;

/// Which copies of a transition carry its cost in the branch ITS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    /// The first copy only: one node of the tree is one use of the transition (upper bounds,
    /// which count nodes).
    First,
    /// Every copy: a branch through a node pays that node's cost (lower bounds, which follow a
    /// branch).
    Every,
}

/// The branch ITS of a recursive one, and for each of its transitions the transition it was
/// split from.
#[derive(Clone, Debug)]
pub struct Branches {
    pub its: Its,
    pub origin: Vec<usize>,
}

/// Each target of each transition of `its` as a transition of its own.
pub fn branches(its: &Its, charge: Charge) -> Branches {
    let mut transitions = Vec::new();
    let mut origin = Vec::new();
    for (i, t) in its.transitions.iter().enumerate() {
        for (k, target) in t.targets.iter().enumerate() {
            let charged = k == 0 || charge == Charge::Every;
            transitions.push(Transition {
                targets: vec![target.clone()],
                cost: if charged {
                    t.cost.clone()
                } else {
                    Poly::constant(0)
                },
                ..t.clone()
            });
            origin.push(i);
        }
    }
    Branches {
        its: Its {
            transitions,
            ..its.clone()
        },
        origin,
    }
}

/// Whether at most one target of every transition lies in the SCC of its source: then every
/// entry into an SCC unfolds inside it as a path, not as a tree.
pub fn is_linear(its: &Its) -> bool {
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    let mut scc = vec![usize::MAX; its.locations.len()];
    for (k, locs) in crate::graph::sccs(its, &all).iter().enumerate() {
        for &l in locs {
            scc[l] = k;
        }
    }
    its.transitions.iter().all(|t| {
        let inside = t
            .targets
            .iter()
            .filter(|(target, _)| scc[*target] == scc[t.source])
            .count();
        inside <= 1
    })
}

/// Trees that grow exponentially with the size of the start values: the runs of a
/// [`LinearFamily`] of the branch ITS (every copy charged) whose cycle is one copy of a
/// transition that has another copy with the same target and update. Each node on the family's
/// `L` laps then has two children in the same state, so the tree below the path holds a complete
/// binary tree of depth `L`: at least `2^L − 1` uses of the transition, each of cost ≥ 1 (the
/// family's proof), from start values of size linear in `L`.
#[derive(Clone, Debug)]
pub struct ExponentialFamily {
    /// The family, on the branch ITS.
    pub family: LinearFamily,
    /// The recursive transition of the original ITS, and its two targets that do the same.
    pub transition: usize,
    pub twins: (usize, usize),
}

/// Looks for an [`ExponentialFamily`] of the recursive `its` within `deadline`; only one whose
/// complete trees [`replay_tree`] confirms is returned.
pub fn exponential_family(its: &Its, deadline: Instant) -> Option<ExponentialFamily> {
    let split = branches(its, Charge::Every);
    let twin_of = |copy: usize| -> Option<(usize, usize)> {
        let i = split.origin[copy];
        let k = (0..copy).filter(|&c| split.origin[c] == i).count();
        let t = &its.transitions[i];
        let twin = (0..t.targets.len()).find(|&j| j != k && t.targets[j] == t.targets[k])?;
        Some((k, twin))
    };
    let accept = |f: &LinearFamily| f.cycle.len() == 1 && twin_of(f.cycle[0]).is_some();
    let family = linear_lower_bound::prove_where(&split.its, deadline, &accept)?;
    let copy = family.cycle[0];
    let found = ExponentialFamily {
        transition: split.origin[copy],
        twins: twin_of(copy)?,
        family,
    };
    REPLAY_DEPTHS
        .iter()
        .all(|&l| replay_tree(its, &found, l) == Some(true))
        .then_some(found)
}

/// The depths at which [`exponential_family`] builds the trees node by node before claiming them.
pub const REPLAY_DEPTHS: [i128; 3] = [4, 8, 12];

/// Builds the family's tree for `depth` laps by plain evaluation on the original ITS: the path,
/// then from the cycle's state every node takes the recursive transition (the family's
/// temporaries) into all of its targets, for `depth` levels. Whether every node's guard holds
/// and the cost reaches `2^depth − 1` (`None` on overflow or a malformed family).
pub fn replay_tree(its: &Its, f: &ExponentialFamily, depth: i128) -> Option<bool> {
    let split = branches(its, Charge::Every);
    let lf = &f.family;
    let mut x = lf.start_for(depth)?;
    for (&i, temps) in lf.path.iter().zip(&lf.path_temps) {
        let Some((next, _)) = lower_bound::step(&split.its.transitions[i], &x, temps) else {
            return Some(false);
        };
        x = next;
    }
    let t = &its.transitions[f.transition];
    let temps = &lf.cycle_temps[0];
    let mut cost: i128 = 0;
    let mut work = vec![(x, 0i128)];
    while let Some((x, level)) = work.pop() {
        if level == depth {
            continue;
        }
        let Some((values, c)) = node(t, &x, temps) else {
            return Some(false);
        };
        cost = cost.checked_add(c)?;
        for &k in &[f.twins.0, f.twins.1] {
            let next: Option<Vec<i128>> = t.targets[k].1.iter().map(|u| u.eval(&values)).collect();
            work.push((next?, level + 1));
        }
    }
    Some(cost >= (1i128 << depth) - 1)
}

/// The values (program variables, then temporaries) and cost of using `t` in state `x`, when
/// its guard holds.
fn node(t: &Transition, x: &[i128], temps: &[i128]) -> Option<(Vec<i128>, i128)> {
    let values: Vec<i128> = x.iter().chain(temps).copied().collect();
    if !t.guard.iter().all(|a| a.holds(&values) == Some(true)) {
        return None;
    }
    let cost = t.cost.eval(&values)?;
    (cost >= 1).then_some((values, cost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_koat;

    fn its(rules: &str, vars: &str) -> Its {
        parse_koat(&format!(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f))\n(VAR {vars})\n(RULES\n{rules}\n)"
        ))
        .unwrap()
    }

    #[test]
    fn each_target_becomes_a_transition_and_the_cost_is_charged_as_asked() {
        let r = its(
            "f(X) -{3}> Com_2(f(X - 1), g(X)) :|: X >= 1\ng(X) -> Com_1(h(X))",
            "X",
        );
        let first = branches(&r, Charge::First);
        assert_eq!(first.origin, vec![0, 0, 1]);
        assert!(!first.its.has_multi_targets());
        let costs: Vec<_> = first
            .its
            .transitions
            .iter()
            .map(|t| t.cost.as_constant())
            .collect();
        assert_eq!(costs, vec![Some(3), Some(0), Some(1)]);
        let every = branches(&r, Charge::Every);
        assert_eq!(every.its.transitions[1].cost.as_constant(), Some(3));
        let g = r.locations.iter().position(|l| l == "g");
        assert_eq!(Some(every.its.transitions[1].target()), g);
    }

    #[test]
    fn a_recursion_is_linear_when_one_target_stays_in_the_scc() {
        assert!(is_linear(&its(
            "f(X) -> Com_2(f(X - 1), g(X)) :|: X >= 1",
            "X"
        )));
        assert!(!is_linear(&its(
            "f(X) -> Com_2(f(X - 1), f(X - 1)) :|: X >= 1",
            "X"
        )));
        // Two calls of a function in another SCC: still linear (each is a path there).
        assert!(is_linear(&its(
            "f(X) -> Com_2(g(X), g(X))\ng(X) -> Com_1(g(X - 1)) :|: X >= 1",
            "X"
        )));
    }

    #[test]
    fn two_equal_calls_give_complete_binary_trees() {
        let r = its("f(X) -> Com_2(f(X - 1), f(X - 1)) :|: X >= 1", "X");
        let far = Instant::now() + std::time::Duration::from_secs(600);
        let f = exponential_family(&r, far).expect("a family");
        assert_eq!((f.transition, f.twins), (0, (0, 1)));
        // The tree of depth 12 from X = 12·scale… has 4095 nodes.
        assert_eq!(replay_tree(&r, &f, 12), Some(true));
        // Different calls (X − 1 and X − 2): not twins, no claim.
        let fib = its("f(X) -> Com_2(f(X - 1), f(X - 2)) :|: X >= 2", "X");
        assert!(exponential_family(&fib, far).is_none());
    }
}
