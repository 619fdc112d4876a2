//! The leak check (SV-COMP's valid-memtrack): heap blocks that no pointer in a live non-heap object
//! (globals, the stack of still-active functions, runtime data) reaches, directly or through other heap
//! blocks, are leaked. It runs wherever the program ends — normal exit, `exit`, and also `abort`, a failed
//! `assert` or the error function — because a block whose last pointer was lost stays lost whatever ends
//! the run afterwards. Only words that may hold pointers count: a word the program stored as an integer
//! does not (`provenance.rs`), as SV-COMP's memtrack is about pointers to blocks.
//!
//! SV-COMP's valid-memcleanup asks more: at the same ends, no heap block may be left allocated, whether
//! a pointer still reaches it or not.

use crate::domain::{BinOp, CastOp, CmpOp, Decision, Domain};
use crate::memory::{Lookup, ObjId, ObjKind};
use crate::provenance::Provenance;
use crate::state::State;
use rustc_hash::FxHashSet;

impl<D: Domain> State<D> {
    /// A description of the first heap block still allocated (SV-COMP's valid-memcleanup: every block
    /// is freed before the program ends, whether a pointer still reaches it or not).
    pub(crate) fn not_freed(&self) -> Option<String> {
        let (_, o) = self.mem.heap_blocks().next()?;
        Some(format!(
            "heap block of {} bytes allocated by {} is not freed when the program ends",
            o.size(),
            o.name
        ))
    }

    /// A description of the first leaked heap block, if any.
    ///
    /// A word whose bytes are not all known (a pointer stored through a symbolic index, an input) may or
    /// may not hold a block's address: the check decides `word >> 32 == block` for it, so a symbolic state
    /// forks into the runs where it does and those where it does not, and a concrete replay answers as
    /// the run it replays — both domains then agree on the leak, and its test reproduces it.
    pub(crate) fn leak(&mut self) -> Option<String> {
        if self.mem.live_heap_blocks() == 0 {
            return None;
        }
        let mut reached: FxHashSet<ObjId> = FxHashSet::default();
        let mut unknown_words: Vec<D::Val> = Vec::new();
        let mut work: Vec<ObjId> = (1..self.mem.object_count() as ObjId)
            .filter(|&id| matches!(self.mem.lookup(id), Lookup::Live(o) if o.kind != ObjKind::Heap))
            .collect();
        loop {
            while let Some(id) = work.pop() {
                self.scan_words(id, &mut reached, &mut work, &mut unknown_words);
            }
            let unreached: Vec<ObjId> = self
                .mem
                .heap_blocks()
                .map(|(id, _)| id)
                .filter(|id| !reached.contains(id))
                .collect();
            let &first = unreached.first()?;
            match self.reached_by_unknown_word(&unreached, &unknown_words) {
                Some(id) => {
                    reached.insert(id);
                    work.push(id);
                }
                None => {
                    let o = self.mem.object(first).expect("a live heap block");
                    return Some(format!(
                        "heap block of {} bytes allocated by {} is never freed",
                        o.size(),
                        o.name
                    ));
                }
            }
        }
    }

    /// Adds the heap blocks the known 8-byte words of object `id` point to; keeps its other words.
    fn scan_words(
        &mut self,
        id: ObjId,
        reached: &mut FxHashSet<ObjId>,
        work: &mut Vec<ObjId>,
        unknown_words: &mut Vec<D::Val>,
    ) {
        let Some(o) = self.mem.object(id) else {
            return;
        };
        // Pointers are mostly aligned to their size (8 bytes on x86-64, 4 on i386). Bytes
        // a large object does not store all hold its fill: one word of it stands for them all; a page
        // shared by several places of the object is scanned once (which words occur is what counts).
        let layout = self.mem.layout();
        let width = layout.pointer_bits;
        let word_bytes = width as usize / 8;
        let (runs, fill) = o.contents.stored();
        let fill_word = fill.map(|f| vec![f.clone(); word_bytes]);
        // A known word the program stored as an integer is no pointer, whatever its value: an integer
        // that happens to equal a block's synthetic address must not hide its leak. (A word not known is
        // decided as before: one made from a pointer carries the address mark, and a decision on it
        // makes the verdict UNKNOWN.) Only a flat object's words have one place each; a large object's
        // shared page stands for several places, whose words count as possible pointers as before.
        let flat = o.contents.flat().is_some();
        // Pointers stored off the alignment (members of packed structures, at the offsets their layout
        // gives) are read where they were stored: a list linked through them is reachable.
        let unaligned: Vec<_> = o
            .provenance
            .unaligned_pointers(word_bytes as u64)
            .into_iter()
            .filter(|&at| at + word_bytes as u64 <= o.size())
            .map(|at| o.contents.read(at as usize, word_bytes))
            .collect();
        let words = runs
            .iter()
            .flat_map(|run| run.chunks_exact(word_bytes))
            .chain(fill_word.as_deref())
            .enumerate()
            .map(|(k, chunk)| {
                let at = (k * word_bytes) as u64;
                let integer = flat && o.provenance.all(at, word_bytes as u64, Provenance::Integer);
                (chunk, integer)
            })
            .chain(unaligned.iter().map(|w| (&w[..], false)));
        for (chunk, integer) in words {
            let mut word = [0u8; 8];
            let known = chunk
                .iter()
                .zip(&mut word)
                .all(|(b, w)| self.dom.byte_as_const(b).map(|c| *w = c).is_some());
            if !known {
                let w = self.dom.bytes_to_val(chunk, width);
                let w = if width < 64 {
                    self.dom.cast(CastOp::ZExt, width, 64, &w)
                } else {
                    w
                };
                unknown_words.push(w);
                continue;
            }
            if integer {
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

    /// The first of `blocks` that one of `words` points to on this run (a decision), if any.
    fn reached_by_unknown_word(&mut self, blocks: &[ObjId], words: &[D::Val]) -> Option<ObjId> {
        if words.is_empty() {
            return None;
        }
        let shift = self.dom.constant(64, self.mem.layout().offset_bits as u128);
        let his: Vec<D::Val> = words
            .iter()
            .map(|w| {
                let hi = self.dom.binop(BinOp::LShr, 64, w, &shift);
                self.dom.cast(CastOp::Trunc, 64, 32, &hi)
            })
            .collect();
        for &id in blocks {
            let idv = self.dom.constant(32, id as u128);
            let mut any = self.dom.constant(1, 0);
            for hi in &his {
                let eq = self.dom.cmp(CmpOp::Eq, 32, hi, &idv);
                any = self.dom.binop(BinOp::Or, 1, &any, &eq);
            }
            if self.dom.as_const(&any) == Some(0) {
                continue;
            }
            if self.dom.decide(Decision::PointerObject, &any) {
                return Some(id);
            }
        }
        None
    }
}
