//! The leak check at exit: heap blocks that no pointer in a live non-heap object (globals, the stack of
//! still-active functions, runtime data) reaches, directly or through other heap blocks, are leaked.

use crate::domain::Domain;
use crate::memory::{Lookup, ObjId, ObjKind};
use crate::state::State;
use rustc_hash::FxHashSet;

impl<D: Domain> State<D> {
    /// A description of the first leaked heap block, if any.
    pub(crate) fn leak(&self) -> Option<String> {
        if self.mem.live_heap_blocks() == 0 {
            return None;
        }
        let mut reached: FxHashSet<ObjId> = FxHashSet::default();
        let mut work: Vec<ObjId> = (1..self.mem.object_count() as ObjId)
            .filter(|&id| matches!(self.mem.lookup(id), Lookup::Live(o) if o.kind != ObjKind::Heap))
            .collect();
        while let Some(id) = work.pop() {
            let Some(o) = self.mem.object(id) else {
                continue;
            };
            // Pointers are aligned to their size (8 bytes on x86-64, 4 on i386; packed structs aside).
            let layout = self.mem.layout();
            for chunk in o.bytes.chunks_exact(layout.pointer_bits as usize / 8) {
                let mut word = [0u8; 8];
                let known = chunk
                    .iter()
                    .zip(&mut word)
                    .all(|(b, w)| self.dom.byte_as_const(b).map(|c| *w = c).is_some());
                if !known {
                    continue;
                }
                let (target, _) = layout.split(u64::from_le_bytes(word));
                if let Lookup::Live(t) = self.mem.lookup(target) {
                    if t.kind == ObjKind::Heap && reached.insert(target) {
                        work.push(target);
                    }
                }
            }
        }
        self.mem
            .heap_blocks()
            .find(|(id, _)| !reached.contains(id))
            .map(|(_, o)| {
                format!(
                    "heap block of {} bytes allocated by {} is never freed",
                    o.size(),
                    o.name
                )
            })
    }
}
