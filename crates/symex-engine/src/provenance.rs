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
use smallvec::SmallVec;
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

/// One run of bytes `start..end` last written with provenance `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: u64,
    end: u64,
    kind: Provenance,
}

/// The provenance of an object's bytes: disjoint runs in ascending order; bytes in no run have no
/// recorded provenance. Nearly every object has at most one run (a scalar, an array of integers written
/// element by element: adjacent runs of one kind merge), held inline, so that creating, reading and
/// dropping the map of a local costs no allocation; loads consult it on every access.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProvenanceMap {
    spans: SmallVec<[Span; 1]>,
}

impl ProvenanceMap {
    /// Whether no byte has a recorded provenance.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The index of the first run that ends after `off` (runs are disjoint and sorted, so their ends are
    /// sorted too).
    #[inline]
    fn first_ending_after(&self, off: u64) -> usize {
        self.spans.partition_point(|s| s.end <= off)
    }

    /// The runs overlapping `off..off + n`, in ascending order.
    #[inline]
    fn overlapping(&self, off: u64, n: u64) -> &[Span] {
        if n == 0 {
            return &[];
        }
        let from = self.first_ending_after(off);
        let to = from + self.spans[from..].partition_point(|s| s.start < off + n);
        &self.spans[from..to]
    }

    /// Records that bytes `off..off + n` were written with provenance `kind` (`None`: unknown).
    #[inline(always)]
    pub fn set(&mut self, off: u64, n: u64, kind: Option<Provenance>) {
        if n == 0 || (self.spans.is_empty() && kind.is_none()) {
            return;
        }
        let end = off + n;
        // The shapes nearly every store meets, inlined into the store: the first record of a fresh local,
        // and a run of the kind of the object's only run that touches or overlaps it (a scalar stored
        // again, an array written element by element). Both leave one run.
        if let Some(k) = kind {
            match self.spans.as_mut_slice() {
                [] => {
                    self.spans.push(Span {
                        start: off,
                        end,
                        kind: k,
                    });
                    return;
                }
                [s] if s.kind == k && off <= s.end && end >= s.start => {
                    s.start = s.start.min(off);
                    s.end = s.end.max(end);
                    return;
                }
                _ => {}
            }
        }
        self.set_general(off, end, kind);
    }

    /// [`Self::set`] of bytes `off..end` for the shapes its fast path leaves. Past every run (a
    /// structure of pointer and integer fields written field by field, in order, nearly every store
    /// that comes here): appended, or the last run extended when it is of the same kind and touches
    /// it. Small, so that this common case costs no large frame's register saves; the rest is
    /// [`Self::set_cut`].
    #[inline(never)]
    fn set_general(&mut self, off: u64, end: u64, kind: Option<Provenance>) {
        if let (Some(last), Some(k)) = (self.spans.last_mut(), kind) {
            if off >= last.end {
                if off == last.end && last.kind == k {
                    last.end = end;
                } else {
                    self.append(Span {
                        start: off,
                        end,
                        kind: k,
                    });
                }
                return;
            }
        }
        self.set_cut(off, end, kind);
    }

    /// A run past every run, out of [`Self::set_general`]'s common case (the vector may grow).
    #[cold]
    #[inline(never)]
    fn append(&mut self, s: Span) {
        self.spans.push(s);
    }

    /// [`Self::set`] of bytes `off..end` that some run reaches past: runs cut, replaced or merged.
    #[inline(never)]
    fn set_cut(&mut self, off: u64, end: u64, kind: Option<Provenance>) {
        let from = self.first_ending_after(off);
        // Already so (an integer stored over an integer): nothing changes.
        if let (Some(s), Some(k)) = (self.spans.get(from), kind) {
            if s.start <= off && s.end >= end && s.kind == k {
                return;
            }
        }
        let to = from + self.spans[from..].partition_point(|s| s.start < end);
        // The runs cut by `off..end` keep their parts outside it.
        let mut kept: SmallVec<[Span; 2]> = SmallVec::new();
        if let Some(first) = self.spans.get(from).filter(|_| from < to) {
            if first.start < off {
                kept.push(Span { end: off, ..*first });
            }
        }
        if to > from {
            let last = self.spans[to - 1];
            if last.end > end {
                kept.push(Span { start: end, ..last });
            }
        }
        self.spans.drain(from..to);
        for (i, s) in kept.into_iter().enumerate() {
            self.spans.insert(from + i, s);
        }
        if let Some(k) = kind {
            self.insert_merged(off, end, k);
        }
    }

    /// Inserts the run `start..end` of `kind` where no run overlaps it, merged with the runs of the
    /// same kind that touch it (an array written element by element stays one run).
    fn insert_merged(&mut self, start: u64, end: u64, kind: Provenance) {
        if start >= end {
            return;
        }
        let at = self.first_ending_after(start);
        let joins_before = at > 0 && {
            let b = self.spans[at - 1];
            b.end == start && b.kind == kind
        };
        let joins_after = self
            .spans
            .get(at)
            .is_some_and(|a| a.start == end && a.kind == kind);
        match (joins_before, joins_after) {
            (true, true) => {
                self.spans[at - 1].end = self.spans[at].end;
                self.spans.remove(at);
            }
            (true, false) => self.spans[at - 1].end = end,
            (false, true) => self.spans[at].start = start,
            (false, false) => self.spans.insert(at, Span { start, end, kind }),
        }
    }

    /// Whether some byte of `off..off + n` has provenance `kind`.
    #[inline]
    pub fn any(&self, off: u64, n: u64, kind: Provenance) -> bool {
        n > 0 && !self.spans.is_empty() && self.overlapping(off, n).iter().any(|s| s.kind == kind)
    }

    /// Whether every byte of `off..off + n` has provenance `kind`.
    pub fn all(&self, off: u64, n: u64, kind: Provenance) -> bool {
        n == 0 || tiles(self.overlapping(off, n), off, n, kind)
    }

    /// Whether some byte of the object has provenance `kind`.
    #[inline(always)]
    pub fn contains(&self, kind: Provenance) -> bool {
        self.spans.iter().any(|s| s.kind == kind)
    }

    /// The offsets of the `word`-byte pointers stored off the `word` alignment (members of packed
    /// structures): each `Pointer` run that starts unaligned holds whole pointers from its start (stores
    /// write whole pointers; adjacent ones merge into one run).
    pub fn unaligned_pointers(&self, word: u64) -> Vec<u64> {
        self.spans
            .iter()
            .filter(|s| s.kind == Provenance::Pointer && s.start % word != 0)
            .flat_map(|s| (s.start..s.end.saturating_sub(word - 1)).step_by(word as usize))
            .collect()
    }

    /// Forgets every `Integer` run (a write at an offset not known: any of them may now hold anything).
    pub fn forget_integers(&mut self) {
        self.spans.retain(|s| s.kind != Provenance::Integer);
    }

    /// Marks the whole object (`size` bytes) `Pointer` (a pointer written at an offset not known).
    pub fn all_pointers(&mut self, size: u64) {
        self.spans.clear();
        if size > 0 {
            self.spans.push(Span {
                start: 0,
                end: size,
                kind: Provenance::Pointer,
            });
        }
    }

    /// Bytes `dst_off..dst_off + n` take the provenance of `src`'s bytes `src_off..src_off + n` (a copy).
    pub fn copy_from(&mut self, dst_off: u64, src: &ProvenanceMap, src_off: u64, n: u64) {
        self.set(dst_off, n, None);
        if n == 0 || src.spans.is_empty() {
            return;
        }
        for s in src.overlapping(src_off, n) {
            let (a, b) = (s.start.max(src_off), s.end.min(src_off + n));
            self.insert_merged(dst_off + (a - src_off), dst_off + (b - src_off), s.kind);
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
            for s in &m.spans {
                cuts.extend([s.start, s.end]);
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
        self.spans
            .get(self.first_ending_after(off))
            .filter(|s| s.start <= off)
            .map(|s| s.kind)
    }

    /// Records `other`'s runs at offset `at`; bytes `other` has no provenance for keep theirs.
    pub fn overlay(&mut self, at: u64, other: &ProvenanceMap) {
        for s in &other.spans {
            self.set(at + s.start, s.end - s.start, Some(s.kind));
        }
    }

    /// What a read of bytes `off..off + n` sees of stored pointers, pointers being `pointer_bytes` wide.
    #[inline(always)]
    pub fn pointer_bytes(&self, off: u64, n: u64, pointer_bytes: u64) -> PointerBytes {
        // Most objects never held a pointer: their one run, if any, is looked at. A map of more runs is
        // searched for the bytes read rather than scanned for a pointer run: a structure or an array of
        // them with pointer and integer fields has a run per field, and every load from it scanned them.
        // An object holding one pointer (a pointer variable) is answered from its run.
        match self.spans.as_slice() {
            [] => PointerBytes::None,
            [s] if s.kind != Provenance::Pointer
                || n == 0
                || s.end <= off
                || s.start >= off + n =>
            {
                PointerBytes::None
            }
            [s] if n == pointer_bytes && s.start <= off && s.end >= off + n => PointerBytes::Whole,
            [_] => PointerBytes::Part,
            _ => self.pointer_bytes_read(off, n, pointer_bytes),
        }
    }

    /// [`Self::pointer_bytes`] of a map that may hold a pointer run.
    #[inline(never)]
    fn pointer_bytes_read(&self, off: u64, n: u64, pointer_bytes: u64) -> PointerBytes {
        let over = self.overlapping(off, n);
        if !over.iter().any(|s| s.kind == Provenance::Pointer) {
            PointerBytes::None
        } else if n == pointer_bytes && tiles(over, off, n, Provenance::Pointer) {
            PointerBytes::Whole
        } else {
            PointerBytes::Part
        }
    }
}

/// Whether `over` (the runs overlapping `off..off + n`, in order) cover those bytes without a gap,
/// each of kind `kind`.
fn tiles(over: &[Span], off: u64, n: u64, kind: Provenance) -> bool {
    let mut covered_to = off;
    for s in over {
        if s.kind != kind || s.start > covered_to {
            return false;
        }
        covered_to = s.end;
    }
    covered_to >= off + n
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
    match &prog.module().ty(ty).kind {
        TypeKind::Ptr => m.set(at, prog.store_size(ty), Some(Provenance::Pointer)),
        TypeKind::Array { elem, len } => {
            let step = prog.module().ty(*elem).alloc_size;
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
    match &prog.module().ty(ty).kind {
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
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
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
                let joined = map.join(&other);
                for q in 0..SIZE {
                    let (a, b) = (bytes[q as usize], other_bytes[q as usize]);
                    assert_eq!(map.kind_at(q), a, "kind_at {q}");
                    let j = match (a, b) {
                        (Some(x), Some(y)) if x == y => Some(x),
                        (Some(Pointer), _) | (_, Some(Pointer)) => Some(Pointer),
                        _ => None,
                    };
                    assert_eq!(joined.kind_at(q), j, "join {q}");
                }
                // Runs stay sorted, disjoint, non-empty and merged with same-kind neighbours.
                for w in map.spans.windows(2) {
                    assert!(
                        w[0].end <= w[1].start
                            && !(w[0].end == w[1].start && w[0].kind == w[1].kind)
                    );
                }
                assert!(map.spans.iter().all(|s| s.start < s.end));
                for q in 0..SIZE {
                    for m in 0..=SIZE - q {
                        let r = &bytes[q as usize..(q + m) as usize];
                        for k in [Pointer, Integer] {
                            assert_eq!(map.any(q, m, k), r.contains(&Some(k)), "any {q} {m}");
                            assert_eq!(map.all(q, m, k), r.iter().all(|b| *b == Some(k)), "all");
                        }
                        let seen = if m == 8 && r.iter().all(|b| *b == Some(Pointer)) {
                            PointerBytes::Whole
                        } else if r.contains(&Some(Pointer)) {
                            PointerBytes::Part
                        } else {
                            PointerBytes::None
                        };
                        assert_eq!(map.pointer_bytes(q, m, 8), seen, "pointer_bytes {q} {m}");
                    }
                }
            }
        }
    }
}
