//! SCC-wide multiphase ranking functions: eventual decrease bounded by the SCC's entries.
//!
//! A transition `t` of an SCC whose steps wait for each other's runtime and size bounds
//! gets a multiphase ranking function `(f_1, …, f_k)` (Ben-Amram & Genaim, nested form;
//! [`crate::multiphase`]) for which `t` is a strict step and *every* transition of the
//! SCC is a strict or a weak one. A visit of the SCC is then one stretch of those steps,
//! entered with `f_i ≤ F_i`, so it has at most `k·(Σ F_i + 2)` strict steps
//! ([`multiphase::steps_bound`]), and `t` runs at most
//! `Σ_{e entering the SCC} RB(e)·k·(Σ_i |f_i|(SB(e)) + 2)` times — the entries come from
//! earlier SCCs, so no runtime or size bound of this SCC is needed. This is the multiphase
//! counterpart of [`Ctx::resynthesize`]'s SCC-wide linear functions.
//!
//! VMCAI'05's `poly3` (Bradley, Manna & Sipma's polynomial loops), once its guard
//! `B³ ≥ C` is split by the sign of `B`: `B' = B + C, C' = C − 1` with `B ≥ 0` is the
//! strict step of `(C + 1; B)`; `C` eventually falls below zero, after which `B` falls.
//! The other transitions lower `C` and do not raise `B`. KoAT's rule (the entries of the
//! step's part only) would need the sizes of `B` after those other transitions, which
//! grow with the very runtime bound sought.

use super::Ctx;
use crate::bound::Bound;
use crate::multiphase::{self, Multiphase};
use crate::termination::{self, SccProof};
use std::time::Instant;

impl Ctx<'_> {
    /// A bound of transition `t` from an SCC-wide multiphase function strict on `t` (see
    /// the module comment), or `None` (no function of depth 2 to
    /// [`termination::MAX_DEPTH`] within a quick query, an SCC too large for one, or an
    /// entry's bound not known).
    pub(super) fn multiphase_scc_bound(&mut self, proof: &SccProof, t: usize) -> Option<Bound> {
        if proof.transitions.len() > termination::MULTIPHASE_MAX_TRANSITIONS
            || !self.fallback_time_left()
        {
            return None;
        }
        let started = Instant::now();
        let found = multiphase::synthesize_checked(
            self.its,
            &proof.transitions,
            &[t],
            termination::MAX_DEPTH,
            self.solver.as_mut(),
            self.fallback_left.min(termination::QUICK_TIMEOUT),
        );
        self.charge_fallback(started);
        let (mp, _strict) = found?;
        self.multiphase_entries_bound(&mp)
    }

    /// `Σ_{e entering the SCC} RB(e)·k·(Σ_i |f_i|(SB(e)) + 2)`, plus the phases' values
    /// at the start values when the run starts inside the SCC.
    fn multiphase_entries_bound(&mut self, mp: &Multiphase) -> Option<Bound> {
        let its = self.its;
        let (locs, _) = self.current.clone()?;
        let mut total = Bound::constant(0);
        if locs.contains(&its.start) {
            let values: Vec<Bound> = mp
                .phases
                .iter()
                .map(|f| Bound::of_poly(&f.get(its.start), &mut Bound::start_var))
                .collect();
            total = multiphase::steps_bound(&values);
        }
        for e in 0..its.transitions.len() {
            let t = &its.transitions[e];
            if locs.contains(&t.source) || !locs.contains(&t.target()) {
                continue;
            }
            let rb = self.rb[e].clone()?;
            let mut values = Vec::new();
            for f in &mp.phases {
                values.push(self.entry_value(e, &f.get(t.target()))?);
            }
            total = total.add(&rb.mul(&multiphase::steps_bound(&values)));
        }
        Some(total)
    }
}
