//! Preprocessing: each step returns an ITS with the same runs from the start location
//! (up to the split of disjunctive guards and the values of sliced variables), so the
//! provers may work on the result.

mod case_split;
mod chain;
mod invariants;
mod linear_invariants;
mod merge_exits;
mod partial_eval;
mod phases;
mod power_signs;
mod slice;
mod split_ne;
mod tighten;
mod unfold;
mod unreachable;
mod unsat;

pub use case_split::split_phases;
pub use chain::chain;
pub use invariants::{add_interval_invariants, interval_invariants};
pub use linear_invariants::{
    add_linear_invariants, add_relational_invariants, linear_invariants, relational_invariants,
};
pub use merge_exits::merge_dead_end_exits;
pub use partial_eval::{partial_evaluate, partial_evaluate_constants};
pub use power_signs::split_power_signs;

/// The ITS split by the phases of a non-increasing variable ([`phases`]), its unsatisfiable
/// and unreachable copies removed; `None` when no SCC has such a variable.
pub fn split_monotone_phases(its: &Its, timeout: Duration) -> Option<Its> {
    let split = phases::split_monotone_phases(its)?;
    let split = remove_unsatisfiable(&split, timeout);
    Some(remove_unreachable(&split))
}
pub use slice::{relevant_variables, slice};
pub use split_ne::split_disequalities;
pub use tighten::tighten;
pub use unfold::{unfold, unfold_with};
pub use unreachable::remove_unreachable;
pub use unsat::remove_unsatisfiable;

use crate::its::Its;
use crate::trace;
use std::time::{Duration, Instant};

/// All steps, in order.
pub fn preprocess(its: &Its, timeout: Duration) -> Its {
    let _phase = trace::phase("preprocess");
    let its = trace::step("split ≠", || split_disequalities(its));
    let its = trace::step("unsat", || remove_unsatisfiable(&its, timeout));
    let its = remove_unreachable(&its);
    let its = trace::step("slice", || slice(&its));
    let its = trace::step("invariants", || add_linear_invariants(&its, timeout));
    let its = trace::step("chain", || chain(&its, 4));
    let its = trace::step("tighten", || tighten(&its));
    let its = trace::step("unsat", || remove_unsatisfiable(&its, timeout));
    // A location whose unsatisfiable transitions (known so only with the invariants) kept it
    // from being chained is chained now: T2's `cover` walks a chain of up to 119 locations per
    // lap, each with one more exit before the invariants.
    let chained = chain(&its, 4);
    if chained == its {
        return its;
    }
    let its = trace::step("tighten", || tighten::tighten_dropping_implied(&chained));
    trace::step("unsat", || remove_unsatisfiable(&its, timeout))
}

/// The ITS unfolded by the last transition ([`unfold`]) with the invariants of the new
/// location copies, or `None` when no location was split. A refinement for the provers
/// to retry with when the preprocessed ITS gets no proof (unfolding everywhere costs
/// more proofs than it gains).
pub fn refine(its: &Its, timeout: Duration) -> Option<Its> {
    refine_with(its, timeout, unfold::MAX_PAIRS)
}

/// As [`refine`], splitting locations with up to `max_pairs` incoming × outgoing pairs
/// (the termination prover's retry on the cycles alone, whose heads have fewer exits).
pub fn refine_with(its: &Its, timeout: Duration, max_pairs: usize) -> Option<Its> {
    let limit = 4 * its.transitions.len() + 32;
    let mut current = its.clone();
    let mut split = false;
    // A split may separate the transitions into a location that an earlier split could
    // not yet tell apart (T2's a.10.c: `f3 → f4 → f3`, split at f4 first, then at f3):
    // a few rounds, while the ITS stays at most four times as large.
    for _ in 0..REFINE_ROUNDS {
        let unfolded = unfold_with(&current, timeout, max_pairs);
        if unfolded.locations.len() == current.locations.len() || unfolded.transitions.len() > limit
        {
            break;
        }
        // The copies of a split location may have invariants the location had not.
        let next = add_relational_invariants(&unfolded, timeout);
        let next = remove_unsatisfiable(&next, timeout);
        current = remove_unreachable(&next);
        split = true;
    }
    split.then_some(current)
}

/// As [`refine`] after [`merge_dead_end_exits`] (for upper bounds only), splitting
/// locations with up to [`MERGED_PAIRS`] pairs: a loop head whose chained-away exits kept
/// it from being split. `None` when no exits were merged or nothing was split.
pub fn refine_merged(its: &Its, timeout: Duration) -> Option<Its> {
    refine_with(&merge_dead_end_exits(its)?, timeout, MERGED_PAIRS)
}

/// Incoming × outgoing pairs up to which [`refine_merged`] splits a location (counterex1a's
/// head: 7 incoming, 6 loop transitions and the merged exit).
const MERGED_PAIRS: usize = 64;

/// As [`refine`], splitting locations with up to [`WIDE_PAIRS`] incoming × outgoing pairs;
/// `None` unless some location has more than [`MERGED_PAIRS`] of them (the other refinements
/// already try the smaller ones). A loop head with many self-loops that can follow each other
/// only in a few orders — the edges of its *path dependency automaton* (Xie et al., Proteus,
/// PLDI 2016) — becomes one copy per self-loop, and the cycle through all of them, which no
/// linear ranking function covers, falls apart into self-loops that each have one (T2's
/// `spiral`: 4 entries and 8 self-loops, 96 pairs; each self-loop is followed by itself or by
/// one other, never round the spiral, because each quarter turn stops at an axis).
pub fn refine_wide(its: &Its, timeout: Duration) -> Option<Its> {
    let wide = (0..its.locations.len()).any(|l| {
        let ins = its.transitions.iter().filter(|t| t.target() == l).count();
        let outs = its.transitions.iter().filter(|t| t.source == l).count();
        (MERGED_PAIRS + 1..=WIDE_PAIRS).contains(&(ins * outs))
    });
    if !wide || its.has_multi_targets() {
        return None;
    }
    refine_with(its, timeout, WIDE_PAIRS)
}

/// Incoming × outgoing pairs up to which [`refine_wide`] splits a location: one solver query
/// each, on the guards of two transitions.
const WIDE_PAIRS: usize = 144;

/// Rounds of [`unfold`] in [`refine`].
const REFINE_ROUNDS: usize = 3;

/// The ITS refined by partial evaluation ([`partial_evaluate`]) on the location sets
/// `sccs`, with the invariants of the new versions, unsatisfiable and unreachable
/// transitions removed; when nothing was split, the ITS with the invariants found after
/// chaining (candidates of a self-loop that the chained-away locations hid: WTC's `gcd`
/// keeps `A ≥ 1 ∧ B ≥ 1`); `None` when neither changed anything or the refinement gave up.
pub fn refine_by_partial_evaluation(
    its: &Its,
    sccs: &[Vec<usize>],
    timeout: Duration,
    deadline: Instant,
) -> Option<Its> {
    let Some((refined, _)) = partial_evaluate(its, sccs, timeout, deadline) else {
        if Instant::now() > deadline {
            return None;
        }
        let again = add_relational_invariants(its, timeout);
        return (again != *its).then_some(again);
    };
    Some(with_relational_invariants(&refined, timeout))
}

/// A partially evaluated ITS made ready for the bound search: unreachable transitions removed, the
/// relational invariants of its new versions added, then unsatisfiable and newly unreachable ones
/// removed (the tail both [`refine_by_partial_evaluation`] and [`refine_by_constants`] share).
fn with_relational_invariants(refined: &Its, timeout: Duration) -> Its {
    let refined = remove_unreachable(refined);
    let refined = add_relational_invariants(&refined, timeout);
    let refined = remove_unsatisfiable(&refined, timeout);
    remove_unreachable(&refined)
}

/// The ITS refined by partial evaluation on the constants that the SCCs `sccs` assign
/// ([`partial_evaluate_constants`]), with the invariants of the new versions, unsatisfiable
/// and unreachable transitions removed; `None` when nothing was split.
pub fn refine_by_constants(
    its: &Its,
    sccs: &[Vec<usize>],
    timeout: Duration,
    deadline: Instant,
) -> Option<Its> {
    let (refined, _) = partial_evaluate_constants(its, sccs, timeout, deadline)?;
    Some(with_relational_invariants(&refined, timeout))
}

/// The ITS with the SCCs `sccs` chained to one head each and the heads split on phase atoms
/// ([`split_phases`]), with the invariants of the new copies (Houdini on the chained laps:
/// Loopus' `Example2` keeps its step size `C ≥ 1` only along whole laps), unsatisfiable and
/// unreachable transitions removed; `None` when nothing was split.
pub fn refine_by_case_split(
    its: &Its,
    sccs: &[Vec<usize>],
    timeout: Duration,
    deadline: Instant,
) -> Option<Its> {
    let refined = split_phases(its, sccs, timeout, deadline)?;
    let refined = add_linear_invariants(&refined, timeout);
    let refined = tighten(&refined);
    let refined = remove_unsatisfiable(&refined, timeout);
    Some(remove_unreachable(&refined))
}
