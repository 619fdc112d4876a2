//! Reusing the ids of dead objects, so that a long run never runs out of them (a loop calling a
//! function whose locals' addresses are passed on: 4095 ids on i386, 2^24 on x86-64) and its object
//! table stays near the number of objects alive at once: when every id is taken, and every so many
//! allocations before that (see [`crate::memory::Memory::reclaim_due`]).
//!
//! A dead object's id may go to a new object only when no pointer to the dead one exists any more:
//! otherwise a use after return or after free through that pointer would reach the new object instead
//! of being reported. So the ids are reclaimed by a scan, like a conservative garbage collector's
//! marking: every value a later instruction could read as an address — the registers and aggregates of
//! every active frame, and each aligned word of every object the program may still read (pointers are
//! aligned to their size, packed structs aside, as the leak check assumes) — keeps the object its high
//! bits name. Integers that happen to look like addresses only keep an id dead for longer. A value not
//! known (a symbolic byte or register) could name any object, so a state holding one reclaims nothing.

use crate::domain::Domain;
use crate::memory::{ObjId, ObjKind};
use crate::regs::RegisterFile;
use crate::state::State;
use std::rc::Rc;

impl<D: Domain> State<D> {
    /// [`crate::memory::Memory::allocate`], reclaiming the ids of unreachable dead objects first when
    /// every id is taken or a reclaiming is due ([`crate::memory::Memory::reclaim_due`]).
    #[inline]
    pub(crate) fn allocate_reclaiming(
        &mut self,
        kind: ObjKind,
        name: Rc<str>,
        size: u64,
        fill: D::Byte,
        initialised: bool,
    ) -> Option<ObjId> {
        if (self.mem.ids_exhausted() || self.mem.reclaim_due())
            && size < self.mem.layout().max_object_size()
        {
            self.reclaim_dead_ids();
        }
        self.mem.allocate(kind, name, size, fill, initialised)
    }

    /// Gives the dead stack and heap objects no value can point to to later objects. Returns how many
    /// ids are now free for reuse (0 when the state holds a value not known).
    pub(crate) fn reclaim_dead_ids(&mut self) -> usize {
        let Some(named) = self.named_objects() else {
            return 0;
        };
        let free: Vec<ObjId> = self
            .mem
            .dead_ids()
            .filter(|&id| !named.get(id as usize).copied().unwrap_or(false))
            .collect();
        let n = free.len();
        self.mem.set_reusable(free);
        n
    }

    /// For each object id, whether some value the program can still read names it (`None`: a value not
    /// known could name any).
    fn named_objects(&self) -> Option<Vec<bool>> {
        let layout = self.mem.layout();
        let mut named = vec![false; self.mem.object_count()];
        let mut mark = |addr: u64| {
            if let Some(n) = named.get_mut(layout.split(addr).0 as usize) {
                *n = true;
            }
        };
        for (_, regs) in self.frames_with_regs() {
            for r in regs.iter() {
                mark(self.dom.as_const(r)? as u64);
            }
        }
        let word_bytes = (layout.pointer_bits / 8) as usize;
        let mut word = |bytes: &[D::Byte]| -> Option<()> {
            let mut w = [0u8; 8];
            for (b, x) in bytes.iter().zip(&mut w) {
                *x = self.dom.byte_as_const(b)?;
            }
            mark(u64::from_le_bytes(w));
            Some(())
        };
        for f in self.frames() {
            for (_, agg) in f.aggs() {
                agg.chunks_exact(word_bytes).try_for_each(&mut word)?;
            }
        }
        for o in self.mem.readable_objects() {
            let (runs, fill) = o.contents.stored();
            for run in runs {
                run.chunks_exact(word_bytes).try_for_each(&mut word)?;
            }
            if let Some(f) = fill {
                word(&vec![f.clone(); word_bytes])?;
            }
        }
        Some(named)
    }
}

#[cfg(test)]
mod tests {
    use crate::access::tests::state;
    use crate::bug::{BugKind, End};
    use crate::memory::{AddressLayout, ObjKind};

    /// A long run of short-lived objects keeps the object table near the number alive at once (ids are
    /// reclaimed before they run out), while a dead object a stored pointer still names never gives its
    /// id away: a read through that pointer is still a use after free.
    #[test]
    fn a_long_run_reuses_dead_ids_but_never_a_named_one() {
        let (prog, mut st) = state(vec![]);
        let addr = |id| AddressLayout::LP64.address(id, 0) as u128;
        let holder = st
            .allocate_reclaiming(ObjKind::Heap, "holder".into(), 8, 0, true)
            .unwrap();
        let named = st
            .allocate_reclaiming(ObjKind::Heap, "named".into(), 4, 0, true)
            .unwrap();
        st.store_scalar(&prog, &addr(holder), &addr(named), 8, 64)
            .unwrap();
        st.mem.kill(named);
        for _ in 0..300_000 {
            let id = st
                .allocate_reclaiming(ObjKind::Heap, "h".into(), 4, 0, true)
                .unwrap();
            assert_ne!(id, named);
            st.mem.kill(id);
        }
        assert!(st.mem.object_count() < 3 << 16, "{}", st.mem.object_count());
        let dangling = st.load_scalar(&prog, &addr(holder), 8, 64).unwrap();
        match st.load_scalar(&prog, &dangling, 4, 32) {
            Err(End::Bug(b)) => assert_eq!(b.kind, BugKind::UseAfterFree),
            other => panic!("expected a use after free, got {other:?}"),
        }
    }
}
