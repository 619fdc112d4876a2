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

use super::{infer_with, Best, First, STUCK_SIZES};
use crate::its::Its;
use crate::termination::Limits;

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
    let c = crate::trace::step("infer", || infer_with(&related, &retry, true));
    best.offer(&related, c);
}
