//! Runtime bounds of [`twn`](crate::twn) loops, also inside larger SCCs (after Lommen,
//! Meyer & Giesl 2022): each entry `e` of the loop's location (a transition into it that is
//! not one of the loop's) starts at most `bound(SB(e))` iterations, so the loop runs at most
//! `Σ_e RB(e)·bound(SB(e))` times (plus `bound` of the start values when the run starts
//! there). Inside an SCC the sizes after an entry from the SCC are those of the SCC, which
//! for a variable the loop changes wait for the loop's own bound; then the sizes entering
//! the entry's source are used instead (`l2 → l1: A' = D` then `l1 → l2` keeps `A`: `|D|`).

use super::Ctx;
use crate::bound::Bound;
use crate::poly::Poly;
use crate::termination::SccProof;
use crate::twn::TwnLoop;

impl Ctx<'_> {
    /// Whether a twn loop of the SCC still has no runtime bound.
    pub(super) fn twn_open(&self, proof: &SccProof) -> bool {
        self.twn
            .iter()
            .any(|l| proof.locations.contains(&l.location) && self.rb[l.transitions[0]].is_none())
    }

    /// Bounds the twn loops of the SCC whose entries are bounded; whether one got a bound.
    pub(super) fn twn_progress(&mut self, proof: &SccProof) -> bool {
        let open: Vec<TwnLoop> = self
            .twn
            .iter()
            .filter(|l| {
                proof.locations.contains(&l.location) && self.rb[l.transitions[0]].is_none()
            })
            .cloned()
            .collect();
        let mut progress = false;
        for l in open {
            if let Some(b) = self.twn_bound(&l) {
                for &i in &l.transitions {
                    self.rb[i] = Some(b.clone());
                }
                progress = true;
            }
        }
        progress
    }

    /// `Σ_e RB(e)·bound(SB(e))`; `None` while a part is unknown.
    fn twn_bound(&mut self, l: &TwnLoop) -> Option<Bound> {
        let its = self.its;
        let mut total = Bound::constant(0);
        if its.start == l.location {
            total = Bound::of_poly(&l.bound, &mut Bound::start_var);
        }
        for e in 0..its.transitions.len() {
            if its.transitions[e].target() != l.location || l.transitions.contains(&e) {
                continue;
            }
            let rb = self.rb[e].clone()?;
            let value = self.twn_entry_value(e, &l.bound)?;
            total = total.add(&rb.mul(&value));
        }
        Some(total)
    }

    /// `|f|` after entry `e`, with [`Ctx::size_before_entry`] for the variables a twn loop
    /// of the current SCC changes when `e` comes from inside it.
    fn twn_entry_value(&mut self, e: usize, f: &Poly) -> Option<Bound> {
        let its = self.its;
        let t = &its.transitions[e];
        let inner = self
            .current
            .as_ref()
            .is_some_and(|(locs, _)| locs.contains(&t.source));
        let mut sizes = vec![Bound::Infinite; its.arity()];
        for v in f.vars() {
            let mut size = None;
            if inner && self.twn_changes_any(&t.update()[v]) {
                size = self.size_after_from_sources(e, v);
            }
            sizes[v] = match size {
                Some(s) => s,
                None => self.post_size(e, v)?,
            };
        }
        Some(Bound::of_poly(f, &mut |v| sizes[v].clone()))
    }

    /// Whether a twn loop of the current SCC changes a variable of `p`.
    fn twn_changes_any(&self, p: &Poly) -> bool {
        let Some((locs, _)) = &self.current else {
            return false;
        };
        self.twn
            .iter()
            .filter(|l| locs.contains(&l.location))
            .any(|l| {
                let u = self.its.transitions[l.transitions[0]].update();
                p.vars()
                    .iter()
                    .any(|&v| v < u.len() && u[v] != Poly::var(v))
            })
    }

    /// `|v|` after `e` from the sizes of the transitions entering `e`'s source `s`, each
    /// composed with the sizes before it (they set every value there), plus `RB(t)·|d|`
    /// for each self-loop `t` at `s` that adds `d` (`A' = A + C`); `None` if a self-loop
    /// changes a variable otherwise, or a size is unknown or infinite.
    fn size_after_from_sources(&mut self, e: usize, v: usize) -> Option<Bound> {
        let its = self.its;
        let t = &its.transitions[e];
        let s = t.source;
        let q = t.update()[v].clone();
        if q.vars().iter().any(|&w| w >= its.arity()) {
            return None;
        }
        let mut sizes = vec![Bound::Infinite; its.arity()];
        for w in q.vars() {
            let mut total = Bound::constant(0);
            if its.start == s {
                total = Bound::start_var(w);
            }
            for (i, into) in its.transitions.iter().enumerate() {
                if into.target() != s {
                    continue;
                }
                let b = if into.source == s {
                    let d = into.update()[w].sub(&Poly::var(w));
                    if d.is_zero() {
                        continue;
                    }
                    if d.vars().contains(&w) {
                        return None;
                    }
                    let rb = self.rb[i].clone()?;
                    rb.mul(&self.compose(i, s, &d)?)
                } else {
                    self.post_size(i, w)?
                };
                if b == Bound::Infinite {
                    return None;
                }
                total = total.add(&b);
            }
            sizes[w] = total;
        }
        Some(Bound::of_poly(&q, &mut |w| sizes[w].clone()))
    }
}
