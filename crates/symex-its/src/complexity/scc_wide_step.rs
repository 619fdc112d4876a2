//! A second ranking function for a step, SCC-wide, when the one of the termination proof
//! gives a bound of a higher degree.
//!
//! The termination proof takes the first function Z3's model gives for the transitions
//! still remaining, and which one that is depends on the solver's earlier queries. A
//! function that is non-increasing on the remaining transitions only is bounded by the
//! entries of that part ([`Ctx::entries_bound`]), and an entry from inside the SCC counts
//! with its own runtime bound: the inner loop of T2's `sas1`
//! (`f8 → f8: A' = A + 1, C' = C + 1` under `B ≥ A + 1`, entered once per outer lap) gets
//! `f8: B − A + 1` from the proof, entered `|B|` times with a value up to `|B|`, so `O(n²)`.
//! A function strictly decreasing on the same transitions and non-increasing on *every*
//! transition of the SCC (`f4: B − A, f8: B − A + 1`) is bounded by the SCC's entries from
//! outside alone ([`Ctx::scc_wide_bound`]), `O(n)`. KoAT chooses its ranking functions per
//! the bounds they give in the same way; here one Farkas query asks for such a function
//! when the proof's function is not SCC-wide and its bound is above linear, and the bound of
//! the lower degree is kept, so the degree no longer depends on which function Z3 returned
//! first.

use super::{BoundFunction, BoundRule, Ctx};
use crate::bound::Bound;
use crate::termination::{RankingStep, SccProof};

impl Ctx<'_> {
    /// `bound`, the bound of the linear `step` from its part's entries, or the bound of an
    /// SCC-wide function strict on the step's transitions when that one is tighter
    /// ([`tighter`]).
    pub(super) fn scc_wide_choice(
        &mut self,
        proof: &SccProof,
        step: &RankingStep,
        bound: Bound,
    ) -> Bound {
        if !step.is_plain()
            || !above_linear(&bound)
            || self.is_scc_wide(step)
            || !self.fallback_left()
        {
            return bound;
        }
        let its = self.its;
        let f = crate::farkas::synthesize_strict_on(
            its,
            &proof.transitions,
            &step.removed,
            self.quick.as_mut(),
        );
        let checked = f
            .as_ref()
            .is_some_and(|f| self.ranks_scc(f, &proof.transitions, &step.removed));
        self.charge_fallback();
        let Some(f) = f.filter(|_| checked) else {
            return bound;
        };
        match self.scc_wide_bound(&f) {
            Some(wide) if tighter(&wide, &bound) => {
                for &t in &step.removed {
                    self.bound_functions[t] = Some(BoundFunction {
                        function: f.clone(),
                        non_increasing_on: proof.transitions.clone(),
                        rule: BoundRule::SccWide,
                    });
                }
                wide
            }
            _ => bound,
        }
    }
}

/// Whether `b` is finite and not a polynomial of degree at most one: a linear bound is
/// what an SCC-wide function gives at best from linear sizes, so no query is asked then.
fn above_linear(b: &Bound) -> bool {
    match b {
        Bound::Poly(p) => p.degree() > 1,
        Bound::Infinite => false,
        _ => true,
    }
}

/// Whether `a` is of a lower growth than `b`: a polynomial of a lower degree, or a
/// polynomial where `b` is not one. Equal degrees keep `b`, the proof's own bound.
fn tighter(a: &Bound, b: &Bound) -> bool {
    match (a, b) {
        (Bound::Poly(x), Bound::Poly(y)) => x.degree() < y.degree(),
        (Bound::Poly(_), _) => true,
        _ => false,
    }
}
