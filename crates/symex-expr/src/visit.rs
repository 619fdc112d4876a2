//! DAG traversal without recursion (terms built by loops can be thousands of levels deep).

use rustc_hash::FxHashSet;

use crate::term::Term;

/// Calls `f` once on every distinct node reachable from `roots`, arguments before the terms
/// that use them.
pub fn postorder(roots: &[Term], mut f: impl FnMut(&Term)) {
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    let mut stack: Vec<(&Term, bool)> = Vec::new();
    for r in roots.iter().rev() {
        stack.push((r, false));
    }
    while let Some((t, expanded)) = stack.pop() {
        if expanded {
            f(t);
            continue;
        }
        if !seen.insert(t.id()) {
            continue;
        }
        stack.push((t, true));
        for a in t.args().iter().rev() {
            if !seen.contains(&a.id()) {
                stack.push((a, false));
            }
        }
    }
}

/// Like [`postorder`] with a state shared by the two callbacks, skipping (not entering)
/// nodes for which `enter` returns false.
pub fn postorder_filtered<S>(
    roots: &[Term],
    state: &mut S,
    enter: impl Fn(&S, &Term) -> bool,
    mut f: impl FnMut(&mut S, &Term),
) {
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    let mut stack: Vec<(&Term, bool)> = Vec::new();
    for r in roots.iter().rev() {
        stack.push((r, false));
    }
    while let Some((t, expanded)) = stack.pop() {
        if expanded {
            f(state, t);
            continue;
        }
        if !seen.insert(t.id()) || !enter(state, t) {
            continue;
        }
        stack.push((t, true));
        for a in t.args().iter().rev() {
            if !seen.contains(&a.id()) {
                stack.push((a, false));
            }
        }
    }
}
