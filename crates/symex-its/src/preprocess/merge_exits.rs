//! Merging the dead-end exits of a location, for upper bounds only: chaining leaves each
//! composed prefix ending in a location without successors (see [`super::chain`]), and a
//! loop head gathers a dozen of them (Flores-Montoya's `counterex1a`: 16 exits beside its
//! 6 loop transitions), too many for [`super::unfold`] to split the head by its incoming
//! transitions. All exits of `l` into such dead ends, when their costs are constants,
//! become one transition `l → d` without guard, update or temporaries, costing the largest
//! of them.
//!
//! Every run of the original is a run of the result but for its last step, which, when it
//! was an exit, is now the merged one, costing at least as much; the result's other runs
//! (the merged exit where no exit was enabled) add one step of constant cost to a prefix
//! of an original run. So the result's upper bounds hold for the original, and it
//! terminates when the original does. (Not for lower bounds: runs are added.)

use crate::its::{Its, Transition};
use crate::poly::Poly;

/// The ITS with the dead-end exits of each location merged, or `None` when no location
/// has two or more of them.
pub fn merge_dead_end_exits(its: &Its) -> Option<Its> {
    if its.has_multi_targets() {
        return None;
    }
    let has_successor: Vec<bool> = (0..its.locations.len())
        .map(|l| its.transitions.iter().any(|t| t.source == l))
        .collect();
    let is_exit = |t: &Transition| !has_successor[t.target()] && t.target() != t.source;
    let mut out = its.clone();
    out.transitions.clear();
    let mut merged = false;
    for l in 0..its.locations.len() {
        let from_l: Vec<&Transition> = its.transitions.iter().filter(|t| t.source == l).collect();
        let exits: Vec<&Transition> = from_l.iter().copied().filter(|t| is_exit(t)).collect();
        let costs: Option<Vec<i128>> = exits.iter().map(|t| t.cost.as_constant()).collect();
        let Some(costs) = costs.filter(|_| exits.len() >= 2) else {
            out.transitions.extend(from_l.into_iter().cloned());
            continue;
        };
        merged = true;
        out.transitions
            .extend(from_l.iter().copied().filter(|t| !is_exit(t)).cloned());
        let identity: Vec<Poly> = (0..its.arity()).map(Poly::var).collect();
        out.transitions.push(Transition {
            source: l,
            targets: vec![(exits[0].target(), identity)],
            guard: Vec::new(),
            cost: Poly::constant(costs.into_iter().max().unwrap_or(0)),
            temps: Vec::new(),
            com: false,
        });
    }
    merged.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_koat;

    #[test]
    fn merges_two_exits_into_one_of_the_larger_cost() {
        let its = parse_koat(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS a))\n(VAR X)\n(RULES\n  a(X) -> b(X)\n  b(X) -> b(X - 1) :|: X > 0\n  b(X) -> c(X) :|: X <= 0\n  b(X) -{3}> d(X + 1) :|: X <= 0\n)\n",
        )
        .unwrap();
        let m = merge_dead_end_exits(&its).unwrap();
        assert_eq!(m.transitions.len(), 3);
        let exit = m
            .transitions
            .iter()
            .find(|t| t.guard.is_empty() && t.source != its.start);
        assert_eq!(exit.unwrap().cost, Poly::constant(3));
        // The self-loop stays as it was.
        assert!(m.transitions.contains(&its.transitions[1]));
    }

    #[test]
    fn leaves_a_single_exit_alone() {
        let its = parse_koat(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS a))\n(VAR X)\n(RULES\n  a(X) -> b(X)\n  b(X) -> b(X - 1) :|: X > 0\n  b(X) -> c(X) :|: X <= 0\n)\n",
        )
        .unwrap();
        assert!(merge_dead_end_exits(&its).is_none());
    }
}
