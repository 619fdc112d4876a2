//! SCC-wide size bounds from guard caps: a step `v' = p` whose guard keeps `|p|` within
//! `max(|v|, K + Σ_{w∈W} |w|)` ([`capped_by_guard`]: `B' = B + 1` under `H ≥ B`) never
//! takes `|v|` above that cap, however often it runs, so for `v`'s bound inside the SCC
//! it counts like a reset to the cap: it needs no runtime bound. Where the update's own
//! change waits for a runtime bound that waits for `v`'s size (SAS10's `counterex1`:
//! `B` climbs to `H` in one loop, and the loop's bound needs `|B|`), this breaks the cycle.

use super::Ctx;
use crate::bound::Bound;
use crate::local_size::capped_by_guard;

impl Ctx<'_> {
    /// [`capped_by_guard`]'s bound for `v` on transition `i` (cached, shared with the
    /// result variable graph's), composed with the sizes before `i`: `None` without a cap,
    /// `Some(None)` while a size it needs is unknown.
    pub(super) fn scc_guard_cap(&mut self, i: usize, v: usize) -> Option<Option<Bound>> {
        let cap = match self.guard_caps.get(&(i, v)) {
            Some(c) => c.clone(),
            None => {
                let t = &self.its.transitions[i];
                let c =
                    capped_by_guard(self.quick.as_mut(), t, self.its.arity(), v, &t.update()[v]);
                self.guard_caps.insert((i, v), c.clone());
                c
            }
        }?;
        // The cap's variables are other than `v`: their sizes are the SCC's (or entering).
        Some(self.compose_sizes_before(i, &cap))
    }
}
