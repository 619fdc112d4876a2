//! A first attempt whose runtime and size bounds of an SCC wait for each other, retried on the
//! ITS with **relational invariants** (Houdini over the relations assignments establish and over
//! the candidates passed on along the variables a transition keeps, on the guards the first
//! invariants already strengthened), with sizes per result variable where the SCC-wide ones
//! wait. In the alternating computation of runtime and size bounds (Brockschmidt et al.,
//! "Analyzing runtime and size complexity of integer programs") a counter that an inner loop
//! raises and no transition of the SCC resets has a size only from the runtime bound of that
//! loop, whose bound needs the counter's size; a fact of the location the counter is raised at,
//! that bounds it by another variable, breaks the cycle (a local size bound `|K'| ≤ max(|K|,
//! |T| + 1)` needs no runtime bound). T2's `svdcmp`: `K` is raised on `f332 → f299` and bounded
//! by `T ≥ K`, which the loop condition of `f299 → f315` establishes and `f315 → f332` keeps,
//! but which is a guard atom of no transition at `f332` and so no candidate of the first
//! invariants there; and `T = A − 1` from `T := A − 1` makes `A − K` non-increasing on the
//! whole SCC and bounded where `K` is raised.
//!
//! Right after the first attempt, before the refinements: it costs one Houdini run and one
//! inference where those cost several, and only first attempts stuck this way take it. Not in
//! the first preprocessing, where more guard atoms change the ranking functions Z3 returns
//! ([`crate::preprocess::relational_invariants`]).
//!
//! The retry infers its bounds from the **first attempt's termination proof** (ranking
//! functions and twn loops) instead of proving termination again. The relational invariants
//! only add atoms to guards: each transition keeps its source, targets, updates and cost, and
//! its relation shrinks. Every fact a step of the proof rests on holds for all pairs of states
//! of a transition's relation (a ranking function strictly decreasing and bounded, or
//! non-increasing, on it; a twn loop's iterations under its guard), so it holds on a subset:
//! the proof of the weaker system proves the stronger one, and the runtime bounds from it,
//! with the sizes of the stronger one, are sound there. Proving again costs as many queries
//! as the first attempt did, on larger Farkas problems: on T2's `svdcmp` under a resource
//! limit per query those queries were cut and the retry found no proof.
//! [`strengthens`] checks that shape before a proof is reused.

use super::{bounds, infer_with, Best, Ctx, First, TerminationProof, STUCK_SIZES};
use crate::its::{Its, Transition};
use crate::scoped_flag::ScopedFlag;
use crate::termination::Limits;
use std::cell::Cell;

thread_local! {
    /// Whether [`proof_not_reused`] is in force on this thread.
    static FRESH: Cell<bool> = const { Cell::new(false) };
}

/// Makes the retry prove termination again instead of reusing the first attempt's proof,
/// on this thread while the guard lives: what the retry costs without the reuse (its test).
pub fn proof_not_reused() -> ScopedFlag {
    ScopedFlag::set(&FRESH)
}

/// Whether `stronger` is `weaker` with some atoms added to guards: the same locations, start
/// and transitions in the same order, each with the same source, targets, updates, cost and
/// temporaries, and a guard that contains every atom of the weaker one.
fn strengthens(weaker: &Its, stronger: &Its) -> bool {
    let same = |w: &Transition, s: &Transition| {
        w.source == s.source
            && w.targets == s.targets
            && w.cost == s.cost
            && w.temps == s.temps
            && w.com == s.com
            && w.guard.iter().all(|a| s.guard.contains(a))
    };
    weaker.locations == stronger.locations
        && weaker.start == stronger.start
        && weaker.vars == stronger.vars
        && weaker.transitions.len() == stronger.transitions.len()
        && weaker
            .transitions
            .iter()
            .zip(&stronger.transitions)
            .all(|(w, s)| same(w, s))
}

/// The bounds of `related`, with sizes per result variable, from the termination proof
/// `proof` of `its`, which `related` strengthens.
fn bounds_from_first_proof(
    related: &Its,
    limits: &Limits,
    proof: TerminationProof,
) -> Result<super::Complexity, String> {
    let mut ctx = Ctx::new(related, limits);
    ctx.twn = proof.1;
    bounds(ctx, proof.0)
}

/// Whether `first` failed because an SCC's runtime and size bounds wait for each other.
pub(super) fn stuck_on_sizes(first: &Result<super::Complexity, String>) -> bool {
    first.as_ref().is_err_and(|e| e.starts_with(STUCK_SIZES))
}

/// The inference, with sizes per result variable, on `its` with its relational invariants,
/// within the budget of a retry after `attempt`; offered to `best`.
pub(super) fn infer_with_relational_invariants(
    its: &Its,
    limits: &Limits,
    attempt: First,
    proof: Option<TerminationProof>,
    best: &mut Best,
) {
    let _phase = crate::trace::phase("retry relational invariants");
    let _budget = attempt.budget();
    let retry = attempt.limits(limits);
    let related = crate::trace::step("refine", || {
        crate::preprocess::add_relational_invariants(its, retry.query_timeout)
    });
    if related == *its {
        return;
    }
    let reusable = proof.filter(|_| !FRESH.with(Cell::get) && strengthens(its, &related));
    let c = match reusable {
        Some(p) => crate::trace::step("infer (first proof)", || {
            bounds_from_first_proof(&related, &retry, p)
        }),
        None => crate::trace::step("infer", || infer_with(&related, &retry, true)),
    };
    best.offer(&related, c);
}

#[cfg(test)]
mod tests {
    use super::strengthens;
    use crate::{Atom, Poly};

    const LOOP: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR A B)\n(RULES\n\
      l0(A,B) -> l1(A,B)\n  l1(A,B) -> l1(A - 1,B) :|: A >= 1\n)\n";

    /// Only added guard atoms keep a proof valid: a dropped atom or a changed update does not.
    #[test]
    fn only_added_guard_atoms_strengthen() {
        let its = crate::parse_koat(LOOP).unwrap();
        let mut stronger = its.clone();
        let b_at_most_a = Atom::ge0(Poly::var(0).sub(&Poly::var(1)));
        stronger.transitions[1].guard.push(b_at_most_a.clone());
        stronger.transitions[0].guard.push(b_at_most_a);
        assert!(strengthens(&its, &stronger));
        assert!(strengthens(&its, &its));
        assert!(!strengthens(&stronger, &its), "atoms dropped");
        let mut updated = stronger.clone();
        updated.transitions[1].targets[0].1[0] = updated.transitions[1].targets[0].1[1].clone();
        assert!(!strengthens(&its, &updated), "an update changed");
        let mut swapped = stronger;
        swapped.transitions.swap(0, 1);
        assert!(!strengthens(&its, &swapped), "transitions reordered");
    }
}
