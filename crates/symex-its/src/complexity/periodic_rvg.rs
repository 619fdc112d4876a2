//! Result-variable-graph sizes under a turning update ([`crate::periodic_size`]): a cycle
//! of the graph made of the nodes `(t, u)` of one self-loop `t` for a group `G` of
//! variables that `t` turns (`u' = Σ_w M_{u,w}·w + r_u`, `M^p = ±I`) holds, after any
//! number of steps of `t` in a row from the values `x` entering it, `M^a·x + Σ_j M^{b_j}·r`:
//! `Σ_{u∈G} |u| ≤ K·(Σ_{u∈G} |x_u| + RB(t)·Σ_u |r_u|)`. size10's `B' = 3B + 2C,
//! C' = −5B − 3C` (`K = 8`) then has a size at its loop's exit that waits for no other
//! loop of the SCC (the SCC-wide size of `B` also counts the inner loop's `B − 1`, whose
//! runtime bound needs that size).

use super::Ctx;
use crate::bound::Bound;
use crate::periodic_size;
use crate::size_graph::Rvg;
use std::collections::BTreeSet;

impl Ctx<'_> {
    /// The bound of the graph's SCC `d` when it is such a cycle: `None` when it is not,
    /// `Some(None)` while a size or runtime bound it needs is unknown.
    pub(super) fn rvg_periodic(&mut self, rvg: &Rvg, d: usize) -> Option<Option<Bound>> {
        let n = rvg.n;
        let nodes = &rvg.comps[d];
        let k = nodes.first()? / n;
        if nodes.len() < 2 || nodes.iter().any(|x| x / n != k) {
            return None;
        }
        let t = rvg.inside[k];
        let its = self.its;
        let tr = &its.transitions[t];
        if tr.source != tr.target() {
            return None;
        }
        let group: BTreeSet<usize> = nodes.iter().map(|x| x % n).collect();
        let (norm, rests) = periodic_size::periodic_update(tr, &group)?;
        Some(self.rvg_periodic_bound(rvg, d, k, &group, norm, &rests))
    }

    fn rvg_periodic_bound(
        &mut self,
        rvg: &Rvg,
        d: usize,
        k: usize,
        group: &BTreeSet<usize>,
        norm: i128,
        rests: &[crate::poly::Poly],
    ) -> Option<Bound> {
        let t = rvg.inside[k];
        let mut total = Bound::constant(0);
        for &u in group {
            total = total.add(&self.rvg_entering(rvg, d, k, u)?);
        }
        if rests.iter().any(|r| !r.is_zero()) {
            let rb = self.rb[t].clone()?;
            let mut added = Bound::constant(0);
            for r in rests {
                added = added.add(&self.rvg_compose(t, r)?);
            }
            total = total.add(&rb.mul(&added));
        }
        Some(total.mul(&Bound::constant(norm)))
    }
}
