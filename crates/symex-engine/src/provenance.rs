//! Pointer provenance of stored bytes (issue 8, items 2 and 4): which bytes of an object a store wrote as
//! a pointer and which as an integer. The model's addresses are synthetic (`id << offset_bits | offset`),
//! so two things must not read them as the machine's:
//!
//! * an integer loaded from bytes a pointer was stored to (a union of a pointer and an integer, a
//!   `memcpy` of a pointer into an `unsigned long`) is an address observed as a number, exactly as a
//!   `ptrtoint` is: it is marked ([`crate::domain::Domain::observe_address`]), so no verdict rests on its
//!   bits;
//! * an integer the program stored as an integer is no reference to a heap block for the leak check, even
//!   when its value happens to equal a block's synthetic address (SV-COMP's memtrack is about pointers;
//!   see `leak.rs`).
//!
//! Provenance moves with the bytes: copies (`memcpy`, `realloc`) carry it, library models that store a
//! pointer (`getline`'s buffer, the variadic area, `va_start`) record it, and an aggregate value loaded from
//! memory carries the provenance of its bytes (as a map of its own, see [`crate::state::Frame`]), so that
//! an aggregate copy (a union passed or returned by value) stores it again and an integer `extractvalue`
//! takes from pointer bytes is observed. An aggregate stored with no carried provenance takes it from its
//! type ([`scalar_leaves`]: pointer fields `Pointer`, integer fields `Integer`).
//!
//! Bytes written any other way (other library models, `memset`) have no recorded provenance: possibly a
//! pointer for the leak check, not observed when loaded.

use crate::domain::{BinOp, CastOp, Domain};
use crate::program::Program;
use crate::state::State;
use std::collections::BTreeMap;
use symex_ir::{TypeId, TypeKind};

/// How a byte was last written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provenance {
    /// By a store of a pointer-typed value (or a copy of such bytes).
    Pointer,
    /// By a store of an integer-typed value (or a copy of such bytes).
    Integer,
}

/// What a load read, as far as pointers go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerBytes {
    /// No byte stored as a pointer.
    None,
    /// Exactly the bytes of one stored pointer (a pointer-sized load of them).
    Whole,
    /// Some bytes stored as a pointer (part of one, or an offset not fixed).
    Part,
}

/// The provenance of an object's bytes: disjoint ranges `start -> (end, kind)`; bytes in no range have no
/// recorded provenance. Empty for most objects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProvenanceMap {
    ranges: BTreeMap<u64, (u64, Provenance)>,
}

impl ProvenanceMap {
    /// Whether no byte has a recorded provenance.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The ranges overlapping `off..off + n`, as (start, end, kind), in descending order of start.
    fn overlapping(&self, off: u64, n: u64) -> impl Iterator<Item = (u64, u64, Provenance)> + '_ {
        self.ranges
            .range(..off + n)
            .rev()
            .map(|(&s, &(e, k))| (s, e, k))
            .take_while(move |&(_, e, _)| e > off)
    }

    /// Records that bytes `off..off + n` were written with provenance `kind` (`None`: unknown).
    pub fn set(&mut self, off: u64, n: u64, kind: Option<Provenance>) {
        if n == 0 || (self.ranges.is_empty() && kind.is_none()) {
            return;
        }
        // Already so (an integer stored over an integer): nothing changes.
        if let Some((_, &(e, k))) = self.ranges.range(..=off).next_back() {
            if e >= off + n && Some(k) == kind {
                return;
            }
        }
        let cut: Vec<_> = self.overlapping(off, n).collect();
        let end = off + n;
        for (s, e, k) in cut {
            self.ranges.remove(&s);
            if s < off {
                self.ranges.insert(s, (off, k));
            }
            if e > end {
                self.ranges.insert(end, (e, k));
            }
        }
        if let Some(k) = kind {
            self.insert_merged(off, end, k);
        }
    }

    /// Inserts the range `start..end` of `kind` where no range overlaps it, merged with the ranges of the
    /// same kind that touch it (an array written element by element stays one range).
    fn insert_merged(&mut self, mut start: u64, mut end: u64, kind: Provenance) {
        if start >= end {
            return;
        }
        if let Some((&s, &(e, k))) = self.ranges.range(..start).next_back() {
            if e == start && k == kind {
                self.ranges.remove(&s);
                start = s;
            }
        }
        if let Some(&(e, k)) = self.ranges.get(&end) {
            if k == kind {
                self.ranges.remove(&end);
                end = e;
            }
        }
        self.ranges.insert(start, (end, kind));
    }

    /// Whether some byte of `off..off + n` has provenance `kind`.
    pub fn any(&self, off: u64, n: u64, kind: Provenance) -> bool {
        n > 0 && !self.ranges.is_empty() && self.overlapping(off, n).any(|(_, _, k)| k == kind)
    }

    /// Whether every byte of `off..off + n` has provenance `kind`.
    pub fn all(&self, off: u64, n: u64, kind: Provenance) -> bool {
        if n == 0 {
            return true;
        }
        // Ranges come in descending order: they must tile the interval from its end down to `off`.
        let mut covered_from = off + n;
        for (s, e, k) in self.overlapping(off, n) {
            if k != kind || e < covered_from {
                return false;
            }
            covered_from = s;
            if covered_from <= off {
                return true;
            }
        }
        false
    }

    /// Whether some byte of the object has provenance `kind`.
    pub fn contains(&self, kind: Provenance) -> bool {
        self.ranges.values().any(|&(_, k)| k == kind)
    }

    /// The offsets of the `word`-byte pointers stored off the `word` alignment (members of packed
    /// structures): each `Pointer` range that starts unaligned holds whole pointers from its start (stores
    /// write whole pointers; adjacent ones merge into one range).
    pub fn unaligned_pointers(&self, word: u64) -> Vec<u64> {
        self.ranges
            .iter()
            .filter(|&(&s, &(_, k))| k == Provenance::Pointer && s % word != 0)
            .flat_map(|(&s, &(e, _))| (s..e.saturating_sub(word - 1)).step_by(word as usize))
            .collect()
    }

    /// Forgets every `Integer` range (a write at an offset not known: any of them may now hold anything).
    pub fn forget_integers(&mut self) {
        self.ranges.retain(|_, (_, k)| *k != Provenance::Integer);
    }

    /// Marks the whole object (`size` bytes) `Pointer` (a pointer written at an offset not known).
    pub fn all_pointers(&mut self, size: u64) {
        self.ranges.clear();
        if size > 0 {
            self.ranges.insert(0, (size, Provenance::Pointer));
        }
    }

    /// Bytes `dst_off..dst_off + n` take the provenance of `src`'s bytes `src_off..src_off + n` (a copy).
    pub fn copy_from(&mut self, dst_off: u64, src: &ProvenanceMap, src_off: u64, n: u64) {
        self.set(dst_off, n, None);
        if n == 0 || src.ranges.is_empty() {
            return;
        }
        let moved: Vec<_> = src.overlapping(src_off, n).collect();
        for (s, e, k) in moved {
            let (s, e) = (s.max(src_off), e.min(src_off + n));
            self.insert_merged(dst_off + (s - src_off), dst_off + (e - src_off), k);
        }
    }
}

impl ProvenanceMap {
    /// The provenance of bytes `off..off + n` as the map of an `n`-byte value (an aggregate loaded from
    /// them).
    pub fn slice(&self, off: u64, n: u64) -> ProvenanceMap {
        let mut m = ProvenanceMap::default();
        m.copy_from(0, self, off, n);
        m
    }

    /// The provenance of a byte as two joined states may have written it (merging execution): where
    /// they agree, theirs; `Pointer` on either side wins (an integer loaded from the bytes is then an
    /// observed address, which never yields a wrong verdict); `Integer` against no record is no record
    /// (possibly a pointer for the leak check).
    pub fn join(&self, other: &ProvenanceMap) -> ProvenanceMap {
        if self == other {
            return self.clone();
        }
        let mut cuts: Vec<u64> = Vec::new();
        for m in [self, other] {
            for (&s, &(e, _)) in &m.ranges {
                cuts.extend([s, e]);
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        let mut out = ProvenanceMap::default();
        for w in cuts.windows(2) {
            let k = match (self.kind_at(w[0]), other.kind_at(w[0])) {
                (Some(x), Some(y)) if x == y => Some(x),
                (Some(Provenance::Pointer), _) | (_, Some(Provenance::Pointer)) => {
                    Some(Provenance::Pointer)
                }
                _ => None,
            };
            if let Some(k) = k {
                out.insert_merged(w[0], w[1], k);
            }
        }
        out
    }

    /// The provenance of byte `off`, if recorded.
    fn kind_at(&self, off: u64) -> Option<Provenance> {
        self.ranges
            .range(..=off)
            .next_back()
            .filter(|(_, &(e, _))| e > off)
            .map(|(_, &(_, k))| k)
    }

    /// Records `other`'s ranges at offset `at`; bytes `other` has no provenance for keep theirs.
    pub fn overlay(&mut self, at: u64, other: &ProvenanceMap) {
        for (&s, &(e, k)) in &other.ranges {
            self.set(at + s, e - s, Some(k));
        }
    }

    /// What a read of bytes `off..off + n` sees of stored pointers, pointers being `pointer_bytes` wide.
    pub fn pointer_bytes(&self, off: u64, n: u64, pointer_bytes: u64) -> PointerBytes {
        if n == pointer_bytes && self.all(off, n, Provenance::Pointer) {
            PointerBytes::Whole
        } else if self.any(off, n, Provenance::Pointer) {
            PointerBytes::Part
        } else {
            PointerBytes::None
        }
    }
}

/// The provenance a value of type `ty` gives the bytes it is stored to, from its type alone: a pointer
/// field's bytes `Pointer`, every other byte (integers and padding) `Integer`, as scalar stores of the
/// fields would record them. Types without a pointer are one range (a large array costs nothing).
pub fn scalar_leaves(prog: &Program, ty: TypeId) -> ProvenanceMap {
    let mut m = ProvenanceMap::default();
    let size = prog.store_size(ty);
    if size > 0 {
        m.insert_merged(0, size, Provenance::Integer);
        pointer_leaves(prog, ty, 0, &mut m);
    }
    m
}

/// Marks the pointer fields of a `ty` at offset `at` in `m`.
fn pointer_leaves(prog: &Program, ty: TypeId, at: u64, m: &mut ProvenanceMap) {
    if !has_pointer(prog, ty) {
        return;
    }
    match &prog.module.ty(ty).kind {
        TypeKind::Ptr => m.set(at, prog.store_size(ty), Some(Provenance::Pointer)),
        TypeKind::Array { elem, len } => {
            let step = prog.module.ty(*elem).alloc_size;
            for i in 0..*len {
                pointer_leaves(prog, *elem, at + i * step, m);
            }
        }
        TypeKind::Vector { elem, lanes } => {
            let step = prog.store_size(*elem);
            for i in 0..u64::from(*lanes) {
                pointer_leaves(prog, *elem, at + i * step, m);
            }
        }
        TypeKind::Struct {
            fields, offsets, ..
        } => {
            for (f, off) in fields.iter().zip(offsets) {
                pointer_leaves(prog, *f, at + off, m);
            }
        }
        TypeKind::Void | TypeKind::Int(_) => {}
    }
}

/// Whether a value of type `ty` holds a pointer somewhere.
fn has_pointer(prog: &Program, ty: TypeId) -> bool {
    match &prog.module.ty(ty).kind {
        TypeKind::Ptr => true,
        TypeKind::Array { elem, .. } | TypeKind::Vector { elem, .. } => has_pointer(prog, *elem),
        TypeKind::Struct { fields, .. } => fields.iter().any(|f| has_pointer(prog, *f)),
        TypeKind::Void | TypeKind::Int(_) => false,
    }
}

impl<D: Domain> State<D> {
    /// The `w`-bit integer `v` a load read, observed as an address when its bytes were stored as a
    /// pointer: a whole pointer is marked as its object's address (as `ptrtoint` marks it, so that two
    /// views of one address agree and their difference cancels the mark); part of one carries a mark of
    /// its own (its bits are the platform's too).
    pub(crate) fn observe_loaded_integer(
        &mut self,
        v: D::Val,
        w: u32,
        seen: PointerBytes,
    ) -> D::Val {
        if seen == PointerBytes::None {
            return v;
        }
        if w > 64 {
            // A wider integer (`__int128`) holding a pointer: its low 64 bits carry the mark.
            let low = self.dom.cast(CastOp::Trunc, w, 64, &v);
            let marked = self.dom.observe_address(&low, None);
            let marked = self.dom.cast(CastOp::ZExt, 64, w, &marked);
            let high_mask = self
                .dom
                .constant(w, !0u128 << 64 & crate::concrete::mask(w));
            let high = self.dom.binop(BinOp::And, w, &v, &high_mask);
            return self.dom.binop(BinOp::Or, w, &high, &marked);
        }
        let wide = if w < 64 {
            self.dom.cast(CastOp::ZExt, w, 64, &v)
        } else {
            v
        };
        let observed = match seen {
            PointerBytes::Whole => self.observe_address(&wide),
            _ => self.dom.observe_address(&wide, None),
        };
        if w < 64 {
            self.dom.cast(CastOp::Trunc, 64, w, &observed)
        } else {
            observed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Provenance::{Integer, Pointer};

    /// A byte-by-byte model of the map: the same operations on a plain vector give the same answers.
    #[test]
    fn the_map_agrees_with_a_byte_vector() {
        const SIZE: u64 = 24;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..200 {
            let mut map = ProvenanceMap::default();
            let mut bytes: Vec<Option<Provenance>> = vec![None; SIZE as usize];
            let mut other = ProvenanceMap::default();
            let mut other_bytes: Vec<Option<Provenance>> = vec![None; SIZE as usize];
            for _ in 0..12 {
                let off = next(SIZE);
                let n = next(SIZE - off + 1);
                let kind = [None, Some(Pointer), Some(Integer)][next(3) as usize];
                match next(3) {
                    0 => {
                        map.set(off, n, kind);
                        bytes[off as usize..(off + n) as usize].fill(kind);
                    }
                    1 => {
                        other.set(off, n, kind);
                        other_bytes[off as usize..(off + n) as usize].fill(kind);
                    }
                    _ => {
                        let src = next(SIZE - n + 1);
                        map.copy_from(off, &other, src, n);
                        let part = other_bytes[src as usize..(src + n) as usize].to_vec();
                        bytes[off as usize..(off + n) as usize].clone_from_slice(&part);
                    }
                }
                for q in 0..SIZE {
                    for m in 0..=SIZE - q {
                        let r = &bytes[q as usize..(q + m) as usize];
                        for k in [Pointer, Integer] {
                            assert_eq!(map.any(q, m, k), r.contains(&Some(k)), "any {q} {m}");
                            assert_eq!(map.all(q, m, k), r.iter().all(|b| *b == Some(k)), "all");
                        }
                    }
                }
            }
        }
    }
}
