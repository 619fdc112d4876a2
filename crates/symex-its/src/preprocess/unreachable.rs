//! Transitions from locations the start location cannot reach are never taken.

use crate::its::Its;

/// Removes the transitions whose source is unreachable in the location graph (locations
/// stay, so that indices and names are unchanged).
pub fn remove_unreachable(its: &Its) -> Its {
    let mut reached = vec![false; its.locations.len()];
    reached[its.start] = true;
    let mut work = vec![its.start];
    while let Some(l) = work.pop() {
        for t in its.transitions.iter().filter(|t| t.source == l) {
            for (target, _) in &t.targets {
                if !reached[*target] {
                    reached[*target] = true;
                    work.push(*target);
                }
            }
        }
    }
    let mut out = its.clone();
    out.transitions.retain(|t| reached[t.source]);
    out
}
