//! Ranking functions over the sized variables (KoAT's alternation of runtime and size bounds,
//! Brockschmidt et al.): an SCC-wide function bounds its transitions by
//! `Σ_{e entering} RB(e) · |f_{target(e)}|(SB(e))`, so a function that reads a variable whose
//! size after some entry is unbounded (a free temporary copied in before the loop) gives no
//! finite bound, however well it ranks. Farkas' lemma knows nothing of sizes and may pick
//! such a function where another one exists: T2's `ndes` counts `Q` from 1 to 17 in a loop
//! whose three cases split on `G`, set once from a free temporary, and Z3 returned
//! `18 − G − Q` for the first case. When the SCC-wide function of a transition has no finite
//! bound, one more is asked with the template restricted to the variables whose size after
//! every entry of the SCC is finite (here `17 − Q`).

use super::{BoundFunction, BoundRule, Ctx};
use crate::bound::Bound;
use crate::termination::SccProof;

impl Ctx<'_> {
    /// An SCC-wide bound of transition `t` of the current SCC `proof` from a function strictly
    /// decreasing on `t` and non-increasing on the whole SCC over the sized variables
    /// ([`Ctx::sized_variables`]) alone (re-checked by [`ranking::check`]); `None` without
    /// one, or when every variable is sized (the unrestricted query already answered). The
    /// function is kept as `t`'s [`BoundFunction`].
    pub(super) fn sized_scc_wide_bound(&mut self, proof: &SccProof, t: usize) -> Option<Bound> {
        let sized = self.sized_variables(proof);
        if sized.iter().all(|s| *s) || !self.fallback_left() {
            return None;
        }
        let its = self.its;
        let f = crate::farkas::synthesize_strict_over(
            its,
            &proof.transitions,
            &[t],
            &sized,
            self.quick.as_mut(),
        );
        let checked = f
            .as_ref()
            .is_some_and(|f| self.ranks_scc(f, &proof.transitions, &[t]));
        self.charge_fallback();
        let f = f.filter(|_| checked)?;
        let b = self.scc_wide_bound(&f).filter(|b| *b != Bound::Infinite);
        crate::trace::note(|| {
            let found = b.as_ref().map(|_| "bounded").unwrap_or("no bound");
            format!("sized ranking function for t{t}: {found}")
        });
        if b.is_some() {
            self.bound_functions[t] = Some(BoundFunction {
                function: f,
                non_increasing_on: proof.transitions.clone(),
                rule: BoundRule::SizedVariables,
            });
        }
        b
    }

    /// Which variables have a finite size after every transition entering the SCC `proof`
    /// (the start values count as finite); a size still waiting for a runtime bound counts
    /// as unbounded.
    fn sized_variables(&mut self, proof: &SccProof) -> Vec<bool> {
        let its = self.its;
        let entries: Vec<usize> = (0..its.transitions.len())
            .filter(|&e| {
                let t = &its.transitions[e];
                !proof.locations.contains(&t.source) && proof.locations.contains(&t.target())
            })
            .collect();
        (0..its.arity())
            .map(|v| {
                entries
                    .iter()
                    .all(|&e| self.post_size(e, v).is_some_and(|b| b != Bound::Infinite))
            })
            .collect()
    }
}
