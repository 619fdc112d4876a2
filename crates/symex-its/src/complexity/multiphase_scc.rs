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
//!
//! **Amortised** ([`Ctx::amortised_multiphase_progress`]): a multiphase step of the
//! termination proof whose other SCC transitions `u` (outside its part) already have runtime
//! bounds, and raise each phase `f_i` by at most `δ_{u,i}` (Z3 under `u`'s guard, as for
//! linear functions in [`super::amortised`]), bounds its transitions by
//! `Σ_e RB(e)·k·(Σ_i |f_i|(SB(e)) + 2) + k·Σ_u RB(u)·Σ_i |δ_{u,i}|`. The upper bounds
//! `v_i(t) = Σ_{j<i} F_{i−j}·C(t, j) − C(t, i)` of [`crate::multiphase`] only grow with the
//! `F_i`, and `F_i` enters `v_i` with coefficient 1 and `v_{i'}`, `i' > i`, with a
//! non-negative one: a raise of `f_i` by `δ` at any time keeps `f` below the bounds of the
//! run that had `F_i + δ` from the start. So a visit has at most `k·(Σ_i (F_i + R_i) + 2)`
//! strict steps, `R_i` the raises of `f_i` in it, and the raises of all visits together are
//! at most `Σ_u RB(u)·|δ_{u,i}|`. T2's `polyrank4` once split by the sign of `C`
//! ([`crate::preprocess::split_monotone_phases`]): while `C ≥ 0`, `(1 − A; A − B)` ranks
//! `A' = A + 1, B' = B + A + 1`, and the other loop (`A' = A − C, B' = B − 2C, C' = C − 1`,
//! ranked by `C`) raises both phases by `C`.

use super::amortised::increase_bound;
use super::Ctx;
use crate::bound::Bound;
use crate::multiphase::{self, Multiphase};
use crate::ranking::{self, Decrease};
use crate::termination::{self, RankingStep, SccProof};

impl Ctx<'_> {
    /// A bound of transition `t` from an SCC-wide multiphase function strict on `t` (see
    /// the module comment), or `None` (no function of depth 2 to
    /// [`termination::MAX_DEPTH`] within a quick query, an SCC too large for one, or an
    /// entry's bound not known).
    pub(super) fn multiphase_scc_bound(&mut self, proof: &SccProof, t: usize) -> Option<Bound> {
        if proof.transitions.len() > termination::MULTIPHASE_MAX_TRANSITIONS
            || !self.fallback_left()
        {
            return None;
        }
        let found = multiphase::synthesize_checked(
            self.its,
            &proof.transitions,
            &[t],
            termination::MAX_DEPTH,
            self.solver.as_mut(),
            termination::QUICK_TIMEOUT,
        );
        self.charge_fallback();
        let (mp, _strict) = found?;
        self.multiphase_entries_bound(&mp)
    }

    /// For each open multiphase step of the SCC: its amortised bound (see the module
    /// comment) when every part of it is known. Marks the steps bounded; whether any was.
    pub(super) fn amortised_multiphase_progress(
        &mut self,
        proof: &SccProof,
        done: &mut [bool],
    ) -> bool {
        let mut progress = false;
        for (k, step) in proof.steps.iter().enumerate() {
            if done[k] || step.multiphase.is_none() {
                continue;
            }
            if !self.fallback_left() {
                break;
            }
            let Some(b) = self.amortised_multiphase_bound(proof, step) else {
                continue;
            };
            for &t in &step.removed {
                self.rb[t] = Some(b.clone());
            }
            done[k] = true;
            progress = true;
        }
        progress
    }

    /// The amortised bound of a multiphase step, or `None` when a raise has no bound or a
    /// part is not known.
    fn amortised_multiphase_bound(
        &mut self,
        proof: &SccProof,
        step: &RankingStep,
    ) -> Option<Bound> {
        let its = self.its;
        let mp = step.multiphase.as_ref()?;
        let mut raises = Bound::constant(0);
        for &u in &proof.transitions {
            if step.remaining.contains(&u) {
                // The step's part: the termination proof checked every phase there.
                continue;
            }
            let rb = self.rb[u].clone()?;
            let tr = &its.transitions[u];
            for f in &mp.phases {
                let weak = ranking::check(self.quick.as_mut(), f, tr) != Decrease::Fails;
                let delta = if weak {
                    None
                } else {
                    let after = f.get(tr.target()).substitute(&|w| tr.update()[w].clone());
                    let diff = after.sub(&f.get(tr.source));
                    Some(increase_bound(self.quick.as_mut(), tr, its.arity(), &diff))
                };
                self.charge_fallback();
                let Some(delta) = delta else { continue };
                let sized = match delta {
                    Some(d) => self.compose_sizes(u, tr.source, &d),
                    None => None,
                };
                let d = sized
                    .filter(|d| *d != Bound::Infinite)
                    .or_else(|| self.entry_bounded_increase(proof, f, u))?;
                raises = raises.add(&rb.mul(&d));
            }
        }
        let k = Bound::constant(mp.phases.len() as i128);
        let total = self.multiphase_entries_bound(mp)?.add(&k.mul(&raises));
        (total != Bound::Infinite).then_some(total)
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
