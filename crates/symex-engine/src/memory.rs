//! Byte-addressed memory made of separate objects (functions, globals, string literals, stack
//! variables, heap blocks), so that every access can be checked against its object's bounds and lifetime.
//!
//! An address is `object id << offset_bits | offset` ([`AddressLayout`]: 40 offset bits on 64-bit targets,
//! 20 on 32-bit ones, or up to 24 for a program with a larger global): the object a pointer refers to is in its high bits, so finding it is an index,
//! pointer arithmetic stays plain integer arithmetic (symbolically too), and address 0 is null (object 0
//! never exists). Each object owns a region of `2^offset_bits` bytes and is smaller than half of it
//! ([`AddressLayout::max_object_size`]). A pointer keeps the provenance of the object it was derived from
//! ([`AddressLayout::owner`]) while it stays within half a region of that object, in either direction:
//! `a - k` lands in the upper half of the previous region, where no object has bytes, and `(a - k) + k` is
//! `a` again. Pointer arithmetic that takes a pointer further (into where another object may have bytes)
//! is poisoned to the wild id (see `exec.rs`'s `gep`), so it never reaches another object's bytes. This layout
//! lives only in [`AddressLayout`]. Dead ids are reused only when no pointer can refer to them: at once for
//! stack objects whose address never escaped, and for any dead stack or heap object once the ids run out
//! or many objects were allocated since the last such scan, when the scan finds no value that could hold
//! its address (`reclaim.rs`), so a dangling pointer always
//! finds its dead object. Contents are generic over the byte type (`u8`
//! concretely, terms symbolically) and each object
//! sits behind an `Rc`: cloning a memory copies one pointer per object, and a write copies only the object
//! it changes (copy-on-write).

use crate::provenance::ProvenanceMap;
use std::rc::Rc;

use crate::storage::Contents;

/// Index of an object in the memory.
pub type ObjId = u32;

/// How an address is made of an object id and an offset, for the module's pointer width: `id << offset_bits
/// | off`. On 64-bit targets the offset has 32 bits; on 32-bit targets (i386, 4-byte pointers) the whole
/// address must fit in 32 bits, so it is split 12/20: at most 4095 objects of less than 512 KiB each
/// (fewer ids for larger objects when a global needs them, [`AddressLayout::for_target`]), and what
/// exceeds that ends the path as unsupported, never as a wrong address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressLayout {
    /// Bits of a pointer on the target (64 or 32); pointer values are held zero-extended to 64 bits.
    pub pointer_bits: u32,
    /// Bits of an address that hold the offset within the object.
    pub offset_bits: u32,
}

impl AddressLayout {
    /// x86-64: `id << 40 | offset` (24 id bits, objects below 512 GiB).
    pub const LP64: AddressLayout = AddressLayout {
        pointer_bits: 64,
        offset_bits: 40,
    };
    /// i386 (`-m32`): `id << 20 | offset`, every address below 2^32 (12 id bits, objects below 512 KiB).
    pub const ILP32: AddressLayout = AddressLayout {
        pointer_bits: 32,
        offset_bits: 20,
    };

    /// The layout for a target whose pointers have `bytes` bytes (4 or 8) and whose largest global has
    /// `largest` bytes. On i386 the offset keeps its 20 bits unless a global needs more (SV-COMP's
    /// static arrays of 1 MiB): then it takes as many as make that global smaller than half a region,
    /// up to [`MAX_ILP32_OFFSET_BITS`], and the ids the rest (22 offset bits leave 1,021 objects). Which
    /// split is used changes only the synthetic addresses, whose numeric values no verdict rests on
    /// (a path that depends on them is undecided, see `provenance.rs`).
    pub fn for_target(bytes: u32, largest: u64) -> AddressLayout {
        if bytes != 4 {
            return Self::LP64;
        }
        let mut l = Self::ILP32;
        while largest >= l.max_object_size() && l.offset_bits < MAX_ILP32_OFFSET_BITS {
            l.offset_bits += 1;
        }
        l
    }

    /// The address of byte `off` of object `id`.
    #[inline(always)]
    pub fn address(self, id: ObjId, off: u64) -> u64 {
        ((id as u64) << self.offset_bits) | off
    }

    /// The object and the offset of an address.
    #[inline(always)]
    pub fn split(self, addr: u64) -> (ObjId, u64) {
        (
            (addr >> self.offset_bits) as ObjId,
            addr & self.offset_mask(),
        )
    }

    /// Mask of the offset bits (a region is `offset_mask() + 1` bytes).
    #[inline(always)]
    pub fn offset_mask(self) -> u64 {
        (1 << self.offset_bits) - 1
    }

    /// Objects must be smaller than this: half a region (see the module comment).
    #[inline(always)]
    pub fn max_object_size(self) -> u64 {
        1 << (self.offset_bits - 1)
    }

    /// Object ids are below this (the null object and the wild id included).
    pub fn max_objects(self) -> u64 {
        1u64 << (self.pointer_bits - self.offset_bits).min(32)
    }

    /// The id no object ever has: pointer arithmetic that leaves its object's region lands here.
    pub fn wild_id(self) -> ObjId {
        (self.max_objects() - 1) as ObjId
    }

    /// The id no object ever has either, for a poisoned pointer (wild or lost) moved out of its poison
    /// by arithmetic whose amount is not known: it may be coming back to the object it was derived from,
    /// whose identity the poison lost, so a dereference through it is undecided (not a finding).
    pub fn lost_id(self) -> ObjId {
        self.wild_id() - 1
    }

    /// The first id that no object can have (the wild and lost ids and above).
    fn first_reserved_id(self) -> u64 {
        self.lost_id() as u64
    }

    /// The object whose provenance an address carries: the object of its own region for an offset below
    /// half a region (the object itself, one past its end, and anything up to half a region beyond), the
    /// object of the next region for an offset in the upper half (up to half a region before that object's
    /// start, where `a - k` lands). Every object is smaller than half a region, so a pointer that leaves its
    /// object by less than half a region in either direction keeps its provenance, and coming back to the
    /// object (`(a - k)[k]`, `a + 20 - 20`) finds the object again.
    #[inline(always)]
    pub fn owner(self, addr: u64) -> ObjId {
        (addr.wrapping_add(self.max_object_size()) >> self.offset_bits) as ObjId
    }

    /// Whether pointer arithmetic from `base` to `result` takes the pointer out of its provenance (more than
    /// half a region away, where another object may have bytes): such a pointer is poisoned. Arithmetic from
    /// a null-based pointer (integer arithmetic on addresses written as pointers) is not.
    #[inline(always)]
    pub fn leaves_object(self, base: u64, result: u64) -> bool {
        let (b, _) = self.split(base);
        b != 0 && self.owner(base) != self.owner(result)
    }

    /// The address `offset` bytes from `base` when that stays within `base`'s object (`None` when the
    /// arithmetic [leaves it](Self::leaves_object)): what `getelementptr` of a constant offset gives.
    #[inline(always)]
    pub fn offset_within(self, base: u64, offset: i64) -> Option<u64> {
        let result = match offset {
            0 => base,
            k => self.wrap(base.wrapping_add(k as u64)),
        };
        (!self.leaves_object(base, result)).then_some(result)
    }

    /// The address `offset` bytes from the start of object `id` (a constant address: `&a[k]` as an
    /// initializer or operand), poisoned as pointer arithmetic is when it leaves the object's provenance.
    pub fn derived(self, id: ObjId, offset: i64) -> u64 {
        let base = self.address(id, 0);
        let result = self.wrap(base.wrapping_add(offset as u64));
        if self.leaves_object(base, result) {
            self.address(self.wild_id(), self.split(result).1)
        } else {
            result
        }
    }

    /// `addr` cut to the pointer width (pointer arithmetic wraps there).
    #[inline(always)]
    pub fn wrap(self, addr: u64) -> u64 {
        if self.pointer_bits >= 64 {
            addr
        } else {
            addr & ((1u64 << self.pointer_bits) - 1)
        }
    }
}

/// The most offset bits an i386 layout takes for a large global (objects below 8 MiB, 253 of them).
pub const MAX_ILP32_OFFSET_BITS: u32 = 24;

/// What an object is (it decides which lifetime errors apply and how they are reported).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjKind {
    /// A function: its address can be taken and called, never read or written.
    Function,
    Global,
    StringLiteral,
    /// A local variable (`alloca`): it dies when its function returns.
    Stack,
    /// A `malloc`/`calloc`/`realloc` block: it dies at `free`.
    Heap,
    /// Arguments the runtime sets up (`argv`, variadic argument areas).
    Runtime,
}

/// One memory object.
#[derive(Clone, Debug)]
pub struct Object<B> {
    pub kind: ObjKind,
    /// Where the object comes from (variable, global or allocation site): names its uninitialised inputs
    /// and appears in reports.
    pub name: Rc<str>,
    /// Writes are errors (string literals and `const` globals).
    pub read_only: bool,
    /// Its bytes and which of them were written (stored lazily, see `storage.rs`).
    pub contents: Contents<B>,
    /// Which bytes were stored as pointers or as integers (see `provenance.rs`).
    pub provenance: ProvenanceMap,
    /// A local not written since its allocation or its last [`Memory::restart`]: every byte the fill,
    /// none written, no provenance. Its next restart (the `llvm.lifetime.start` that follows its
    /// `alloca`) then has nothing to refill. Cleared by every access for writing ([`Memory::object_mut`]).
    untouched: bool,
}

impl<B: Clone> Object<B> {
    /// Size in bytes.
    #[inline(always)]
    pub fn size(&self) -> u64 {
        self.contents.size()
    }

    /// Copies `n` bytes (their values, initialisation state and provenance) from `src` at `src_off` to
    /// `dst_off`.
    pub fn copy_bytes_from(&mut self, dst_off: usize, src: &Object<B>, src_off: usize, n: usize) {
        self.contents.copy_from(dst_off, &src.contents, src_off, n);
        self.provenance
            .copy_from(dst_off as u64, &src.provenance, src_off as u64, n as u64);
    }

    /// Moves `n` bytes within the object (overlap allowed, as `memmove`).
    pub fn move_within(&mut self, dst_off: usize, src_off: usize, n: usize) {
        self.contents.move_within(dst_off, src_off, n);
        if !self.provenance.is_empty() {
            let before = self.provenance.clone();
            self.provenance
                .copy_from(dst_off as u64, &before, src_off as u64, n as u64);
        }
    }
}

/// An entry of the object table.
#[derive(Clone, Debug)]
enum Slot<B> {
    Live(Rc<Object<B>>),
    /// A freed heap block or a stack variable whose function returned.
    Dead(ObjKind),
    /// A local whose block was left (`llvm.lifetime.end`): dead, but its function may enter the block
    /// again (`llvm.lifetime.start`), so its shape is kept.
    Ended(Rc<Object<B>>),
    /// A function (its index in the program).
    Function(u32),
}

impl<B> Slot<B> {
    /// A held object (live or ended) made live (`live`) or ended in place; any other entry is left.
    /// The placeholder that `mem::replace` leaves while the object moves is a `Dead` entry, which owns
    /// nothing: it is forgotten rather than dropped, since dropping it went through `Slot`'s drop glue,
    /// a call kept out of line on every restart of an untouched local (half a million in csmith seed
    /// 30's first 10 M instructions).
    #[inline(always)]
    fn hold(&mut self, live: bool) {
        let o = match std::mem::replace(self, Slot::Dead(ObjKind::Stack)) {
            Slot::Live(o) | Slot::Ended(o) => o,
            other => {
                std::mem::forget(std::mem::replace(self, other));
                return;
            }
        };
        let held = if live { Slot::Live(o) } else { Slot::Ended(o) };
        std::mem::forget(std::mem::replace(self, held));
    }
}

/// Bits of an object id that select the entry within a chunk of the object table.
///
/// Small: a state that allocates or frees after a fork copies the chunk it touches, and every queued state
/// of an exploration may hold such a copy.
const CHUNK_BITS: u32 = 4;
const CHUNK: usize = 1 << CHUNK_BITS;

/// A vector of slots in copy-on-write chunks of [`CHUNK`] entries.
///
/// A chunk is an array, not a vector: every load and store looks its object up here, and a vector's
/// pointer to its elements was one more dependent read. The last chunk's entries at and past `len`
/// are placeholders that nothing reads.
#[derive(Clone, Debug)]
struct SlotTable<B> {
    chunks: Vec<Rc<[Slot<B>; CHUNK]>>,
    len: usize,
}

impl<B: Clone> SlotTable<B> {
    fn with_null() -> Self {
        let mut t = SlotTable {
            chunks: Vec::new(),
            len: 0,
        };
        t.push(Slot::Dead(ObjKind::Runtime));
        t
    }

    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn get(&self, i: usize) -> Option<&Slot<B>> {
        if i >= self.len {
            return None;
        }
        // SAFETY: `i < len`, and `push` keeps a chunk for every `CHUNK` entries below `len`.
        let chunk = unsafe { self.chunks.get_unchecked(i >> CHUNK_BITS) };
        Some(&chunk[i & (CHUNK - 1)])
    }

    #[inline(always)]
    fn get_mut(&mut self, i: usize) -> Option<&mut Slot<B>> {
        if i >= self.len {
            return None;
        }
        // SAFETY: as for `get`.
        let chunk = unsafe { self.chunks.get_unchecked_mut(i >> CHUNK_BITS) };
        if Rc::get_mut(chunk).is_none() {
            // Shared with another state: copied here. (Not `make_mut`, whose call stays out of line on
            // the hot path of every allocation, lifetime marker and return.)
            *chunk = Rc::new(chunk.as_ref().clone());
        }
        Some(&mut Rc::get_mut(chunk)?[i & (CHUNK - 1)])
    }

    fn push(&mut self, s: Slot<B>) {
        let at = self.len & (CHUNK - 1);
        if at == 0 {
            self.chunks.push(Rc::new(std::array::from_fn(|_| {
                Slot::Dead(ObjKind::Runtime)
            })));
        }
        let last = self.chunks.last_mut().expect("a chunk");
        Rc::make_mut(last)[at] = s;
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = &Slot<B>> {
        self.chunks.iter().flat_map(|c| c.iter()).take(self.len)
    }
}

/// What a pointer's object id refers to.
#[derive(Debug)]
pub enum Lookup<'a, B> {
    Live(&'a Object<B>),
    Dead(ObjKind),
    /// A local whose block was left (its function has not returned).
    OutOfScope,
    Function(u32),
    /// Null (object 0) or an id no object ever had.
    Nothing,
}

/// The memory of one execution state.
#[derive(Clone, Debug)]
pub struct Memory<B> {
    /// The object table, indexed by object id (entry 0 is the null object and never live), in chunks
    /// shared copy-on-write: cloning a memory costs one pointer per chunk of objects, and a state that
    /// allocates or frees after a fork copies only the chunk it touches.
    slots: SlotTable<B>,
    live_heap: usize,
    /// Which sizes and how many objects addresses can express.
    layout: AddressLayout,
    /// Ids of dead stack objects no pointer refers to (see `escape.rs`), for the next stack objects.
    reusable: Vec<ObjId>,
    /// Objects of dead locals, refilled by the next stack allocations (see [`Spare`]).
    spare: Spare<B>,
    /// Stack and heap allocations since dead ids were last reclaimed, and how many make the next
    /// reclaiming due (see [`Self::reclaim_due`]).
    allocations_since_reclaim: u32,
    reclaim_every: u32,
}

/// Stack and heap allocations between two reclaimings of dead ids at first (see [`Memory::reclaim_due`]).
const RECLAIM_EVERY: u32 = 1 << 16;

/// Dead locals' objects kept for the next stack allocations, so that a call's locals cost no host
/// allocation: calls and returns are frequent, and each local would otherwise allocate (and free) its
/// object, its bytes and its bitmap. Only objects no other state shares are kept; a forked memory starts
/// with none (a kept object belongs to one memory). Boxed, and absent until a local dies: every waiting
/// state of an exploration holds a memory.
#[derive(Debug)]
#[allow(clippy::box_collection)] // the box is what makes the absent list 8 bytes instead of 24
struct Spare<B>(Option<Box<Vec<Rc<Object<B>>>>>);

impl<B> Spare<B> {
    #[inline]
    fn pop(&mut self) -> Option<Rc<Object<B>>> {
        self.0.as_mut()?.pop()
    }

    fn has_room(&self) -> bool {
        self.0.as_ref().is_none_or(|v| v.len() < SPARE_OBJECTS)
    }

    #[inline]
    fn push(&mut self, o: Rc<Object<B>>) {
        self.0.get_or_insert_with(Default::default).push(o);
    }
}

/// How many dead locals' objects a memory keeps, and up to which size.
const SPARE_OBJECTS: usize = 32;
const SPARE_MAX_SIZE: u64 = 256;

impl<B> Clone for Spare<B> {
    fn clone(&self) -> Self {
        Spare(None)
    }
}

impl<B: Clone> Default for Memory<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Clone> Memory<B> {
    /// An empty memory (only the null object) with 64-bit addresses.
    pub fn new() -> Self {
        Self::with_layout(AddressLayout::LP64)
    }

    /// An empty memory whose objects must fit `layout`'s addresses.
    pub fn with_layout(layout: AddressLayout) -> Self {
        Memory {
            slots: SlotTable::with_null(),
            live_heap: 0,
            layout,
            reusable: Vec::new(),
            spare: Spare(None),
            allocations_since_reclaim: 0,
            reclaim_every: RECLAIM_EVERY,
        }
    }

    /// How this memory's addresses are made.
    pub fn layout(&self) -> AddressLayout {
        self.layout
    }

    /// Whether one more object of `size` bytes can be given an address.
    pub fn addressable(&self, size: u64) -> bool {
        size < self.layout.max_object_size()
            && (self.slots.len() as u64) < self.layout.first_reserved_id()
    }

    /// A new object of `size` bytes filled with `fill`; `initialised` says whether those bytes count as
    /// written. Contents are stored lazily (see `storage.rs`), so the size costs no host memory until
    /// written. Returns `None` when the size cannot be addressed, the host refuses the memory of a small
    /// object (never an abort), or no object id is left.
    #[inline]
    pub fn allocate(
        &mut self,
        kind: ObjKind,
        name: Rc<str>,
        size: u64,
        fill: B,
        initialised: bool,
    ) -> Option<ObjId> {
        if matches!(kind, ObjKind::Stack | ObjKind::Heap) && size < self.layout.max_object_size() {
            self.allocations_since_reclaim = self.allocations_since_reclaim.saturating_add(1);
            if let Some(&id) = self.reusable.last() {
                let object = self.new_object(kind, name, size, fill, initialised)?;
                self.reusable.pop();
                *self.slots.get_mut(id as usize).expect("a dead slot") = Slot::Live(object);
                if kind == ObjKind::Heap {
                    self.live_heap += 1;
                }
                return Some(id);
            }
        }
        if !self.addressable(size) {
            return None;
        }
        let object = self.new_object(kind, name, size, fill, initialised)?;
        Some(self.push_object(object))
    }

    /// A fresh object of `size` bytes of `fill`: a dead local's object refilled when one is kept (see
    /// [`Spare`]), a new one otherwise.
    #[inline]
    fn new_object(
        &mut self,
        kind: ObjKind,
        name: Rc<str>,
        size: u64,
        fill: B,
        initialised: bool,
    ) -> Option<Rc<Object<B>>> {
        if kind == ObjKind::Stack && size <= SPARE_MAX_SIZE {
            if let Some(mut rc) = self.spare.pop() {
                let o = Rc::get_mut(&mut rc).expect("a kept object is not shared");
                if o.contents.refill(size, fill.clone(), initialised) {
                    o.kind = kind;
                    o.name = name;
                    o.read_only = false;
                    o.provenance = ProvenanceMap::default();
                    o.untouched = !initialised;
                    return Some(rc);
                }
            }
        }
        Some(Rc::new(Object {
            kind,
            name,
            read_only: false,
            contents: Contents::try_new(size, fill, initialised)?,
            provenance: ProvenanceMap::default(),
            untouched: kind == ObjKind::Stack && !initialised,
        }))
    }

    /// A new object holding `bytes`, all initialised.
    pub fn allocate_with(
        &mut self,
        kind: ObjKind,
        name: Rc<str>,
        bytes: Vec<B>,
        read_only: bool,
    ) -> ObjId {
        self.push(kind, name, Contents::from_bytes(bytes), read_only)
    }

    /// A new object of `size` bytes, all initialised: `prefix`, then `zero` (a global's image, whose
    /// trailing zeros cost nothing).
    pub fn allocate_image(
        &mut self,
        kind: ObjKind,
        name: Rc<str>,
        size: u64,
        prefix: Vec<B>,
        zero: B,
        read_only: bool,
    ) -> ObjId {
        self.push(kind, name, Contents::image(size, prefix, zero), read_only)
    }

    fn push(
        &mut self,
        kind: ObjKind,
        name: Rc<str>,
        contents: Contents<B>,
        read_only: bool,
    ) -> ObjId {
        self.push_object(Rc::new(Object {
            kind,
            name,
            read_only,
            contents,
            provenance: ProvenanceMap::default(),
            untouched: false,
        }))
    }

    fn push_object(&mut self, object: Rc<Object<B>>) -> ObjId {
        let id = self.slots.len() as ObjId;
        if object.kind == ObjKind::Heap {
            self.live_heap += 1;
        }
        self.slots.push(Slot::Live(object));
        id
    }

    /// A new function object; its address is what a function pointer holds.
    pub fn allocate_function(&mut self, function: u32) -> ObjId {
        let id = self.slots.len() as ObjId;
        self.slots.push(Slot::Function(function));
        id
    }

    /// What object `id` is.
    #[inline(always)]
    pub fn lookup(&self, id: ObjId) -> Lookup<'_, B> {
        match self.slots.get(id as usize) {
            Some(Slot::Live(o)) => Lookup::Live(o),
            Some(Slot::Dead(k)) if id != 0 => Lookup::Dead(*k),
            Some(Slot::Ended(_)) => Lookup::OutOfScope,
            Some(Slot::Function(f)) => Lookup::Function(*f),
            _ => Lookup::Nothing,
        }
    }

    /// The live object `id`, for reading.
    #[inline(always)]
    pub fn object(&self, id: ObjId) -> Option<&Object<B>> {
        match self.slots.get(id as usize) {
            Some(Slot::Live(o)) => Some(o),
            _ => None,
        }
    }

    /// The live object `id` itself (a cheap shared handle, e.g. to copy from it while writing another).
    pub fn object_shared(&self, id: ObjId) -> Option<Rc<Object<B>>> {
        match self.slots.get(id as usize) {
            Some(Slot::Live(o)) => Some(o.clone()),
            _ => None,
        }
    }

    /// The live object `id`, for writing (copied first when another state shares it).
    #[inline(always)]
    pub fn object_mut(&mut self, id: ObjId) -> Option<&mut Object<B>> {
        match self.slots.get_mut(id as usize) {
            Some(Slot::Live(o)) => Some(unshared(o)),
            _ => None,
        }
    }

    /// The live object `id` for writing when `accept` takes it (copied first when another state shares
    /// it), looked up once: a store's common case. (A chunk of the object table that another state
    /// shares is copied even when `accept` declines: the same table, at a cost only on failing paths.)
    #[inline(always)]
    pub fn object_mut_where(
        &mut self,
        id: ObjId,
        accept: impl FnOnce(&Object<B>) -> bool,
    ) -> Option<&mut Object<B>> {
        match self.slots.get_mut(id as usize) {
            Some(Slot::Live(o)) if accept(o) => Some(unshared(o)),
            _ => None,
        }
    }

    /// Ends the lifetime of object `id` (free, or its function returned). Returns false if it was not live
    /// (a local whose block was left dies too).
    #[inline]
    pub fn kill(&mut self, id: ObjId) -> bool {
        let Some(slot) = self.slots.get_mut(id as usize) else {
            return false;
        };
        let (live, kind) = match slot {
            Slot::Live(o) => (true, o.kind),
            Slot::Ended(o) => (false, o.kind),
            _ => return false,
        };
        if live && kind == ObjKind::Heap {
            self.live_heap -= 1;
        }
        if let Slot::Live(o) | Slot::Ended(o) = std::mem::replace(slot, Slot::Dead(kind)) {
            if kind == ObjKind::Stack
                && o.size() <= SPARE_MAX_SIZE
                && self.spare.has_room()
                && Rc::strong_count(&o) == 1
            {
                self.spare.push(o);
            }
        }
        live
    }

    /// Ends the lifetime of local `id` until [`Self::restart`] (its block was left).
    #[inline]
    pub fn end_lifetime(&mut self, id: ObjId) {
        if let Some(slot) = self.slots.get_mut(id as usize) {
            if matches!(slot, Slot::Live(o) if o.kind == ObjKind::Stack) {
                // Moved, not cloned: the object stays unshared, so that the next `restart` refills it
                // in place.
                slot.hold(false);
            }
        }
    }

    /// Starts a new lifetime of local `id` (its block is entered): live again, every byte `fill` and
    /// uninitialised, whether it was live or ended before.
    #[inline]
    pub fn restart(&mut self, id: ObjId, fill: B)
    where
        B: PartialEq,
    {
        let Some(slot) = self.slots.get_mut(id as usize) else {
            return;
        };
        let (Slot::Live(o) | Slot::Ended(o)) = slot else {
            return;
        };
        if o.kind != ObjKind::Stack {
            return;
        }
        // A local untouched since its allocation with the same fill (its first lifetime, begun right
        // after its `alloca`) already holds what a restart would make: only its slot becomes live again.
        if o.untouched && o.contents.flat_filled_with(&fill) {
            if matches!(slot, Slot::Ended(_)) {
                slot.hold(true);
            }
            return;
        }
        self.restart_written(id, fill);
    }

    /// [`Self::restart`] of a local written since its last (re)start, or filled with another byte.
    #[inline(never)]
    fn restart_written(&mut self, id: ObjId, fill: B) {
        let Some(slot) = self.slots.get_mut(id as usize) else {
            return;
        };
        let (Slot::Live(o) | Slot::Ended(o)) = slot else {
            return;
        };
        // Block-scoped locals restart on every pass through their block: one no other state shares is
        // refilled in place (its byte vector and bitmap reused), not allocated again.
        if let Some(obj) = Rc::get_mut(o) {
            let size = obj.contents.size();
            if obj.contents.refill(size, fill.clone(), false) {
                obj.read_only = false;
                obj.provenance = ProvenanceMap::default();
                obj.untouched = true;
                if let Slot::Live(o) | Slot::Ended(o) =
                    std::mem::replace(slot, Slot::Dead(ObjKind::Stack))
                {
                    *slot = Slot::Live(o);
                }
                return;
            }
        }
        *slot = Slot::Live(Rc::new(Object {
            kind: o.kind,
            name: o.name.clone(),
            read_only: false,
            contents: o.contents.restarted(fill),
            provenance: ProvenanceMap::default(),
            untouched: true,
        }));
    }

    /// Lets a later stack object take the id of dead stack object `id`, to which no pointer exists (the
    /// caller knows: its address never escaped its frame).
    pub fn reuse_later(&mut self, id: ObjId) {
        if matches!(
            self.slots.get(id as usize),
            Some(Slot::Dead(ObjKind::Stack))
        ) {
            self.reusable.push(id);
        }
    }

    /// Whether every object id is taken (a new object needs a reused one).
    pub fn ids_exhausted(&self) -> bool {
        self.reusable.is_empty() && (self.slots.len() as u64) >= self.layout.first_reserved_id()
    }

    /// The dead stack and heap objects (freed, or their function returned).
    pub fn dead_ids(&self) -> impl Iterator<Item = ObjId> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| match s {
            Slot::Dead(ObjKind::Stack | ObjKind::Heap) if i != 0 => Some(i as ObjId),
            _ => None,
        })
    }

    /// The objects whose bytes the program may still read: live ones and locals whose block was left.
    pub fn readable_objects(&self) -> impl Iterator<Item = &Object<B>> {
        self.slots.iter().filter_map(|s| match s {
            Slot::Live(o) | Slot::Ended(o) => Some(&**o),
            _ => None,
        })
    }

    /// Makes `ids` (dead stack and heap objects no pointer refers to, found by the caller) the ids that
    /// later objects take, in place of those listed before.
    pub fn set_reusable(&mut self, ids: Vec<ObjId>) {
        // A reclaiming that frees few ids (values keep most dead objects named, or a value not known
        // could name any) is not worth its scan as often: the next one waits twice as long.
        if (ids.len() as u64) * 2 < u64::from(self.reclaim_every) {
            self.reclaim_every = self.reclaim_every.saturating_mul(2);
        }
        self.allocations_since_reclaim = 0;
        self.reusable = ids;
    }

    /// Whether the dead ids should be reclaimed before the next allocation although ids are left: no
    /// reusable id is left and many objects were allocated since the last reclaiming. Reclaiming early
    /// keeps the object table near the number of objects alive at once (a long run whose locals'
    /// addresses escape would otherwise give every call's locals new ids, growing the table, and its
    /// memory, until the ids run out).
    pub fn reclaim_due(&self) -> bool {
        self.reusable.is_empty() && self.allocations_since_reclaim >= self.reclaim_every
    }

    /// Marks a live object read-only (string literals, `const` globals).
    pub fn set_read_only(&mut self, id: ObjId) {
        if let Some(o) = self.object_mut(id) {
            o.read_only = true;
        }
    }

    /// Number of heap blocks not freed.
    pub fn live_heap_blocks(&self) -> usize {
        self.live_heap
    }

    /// The live heap blocks (id and object), for the leak check.
    pub fn heap_blocks(&self) -> impl Iterator<Item = (ObjId, &Object<B>)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| match s {
            Slot::Live(o) if o.kind == ObjKind::Heap => Some((i as ObjId, &**o)),
            _ => None,
        })
    }

    /// Number of object ids handed out so far.
    pub fn object_count(&self) -> usize {
        self.slots.len()
    }
}

/// The object behind `o` for writing, copied first when another state shares it, and marked touched.
/// (Not `Rc::make_mut` alone, whose call stayed out of line on the hot path of every store once the
/// stores of each scalar size were inlined separately: the test of the counts is inline, the copy not.)
#[inline(always)]
fn unshared<B: Clone>(o: &mut Rc<Object<B>>) -> &mut Object<B> {
    if Rc::get_mut(o).is_none() {
        copy_shared(o);
    }
    let o = Rc::get_mut(o).expect("an object just made unshared");
    o.untouched = false;
    o
}

#[inline(never)]
#[cold]
fn copy_shared<B: Clone>(o: &mut Rc<Object<B>>) {
    *o = Rc::new(o.as_ref().clone());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mem() -> Memory<u8> {
        Memory::new()
    }

    #[test]
    fn addresses_split_into_object_and_offset() {
        for l in [AddressLayout::LP64, AddressLayout::ILP32] {
            assert_eq!(l.split(l.address(7, 12)), (7, 12));
            assert_eq!(l.split(0), (0, 0));
        }
        let l = AddressLayout::ILP32;
        let last = l.address(l.max_objects() as ObjId - 1, l.offset_mask());
        assert_eq!(last, u32::MAX as u64, "32-bit addresses fit in 32 bits");
        assert_eq!(
            l.wrap(l.address(5, 0).wrapping_sub(1)),
            l.address(4, (1 << 20) - 1)
        );
    }

    #[test]
    fn null_is_no_object() {
        let m = mem();
        assert!(matches!(m.lookup(0), Lookup::Nothing));
        assert!(matches!(m.lookup(99), Lookup::Nothing));
    }

    #[test]
    fn freed_objects_stay_dead() {
        let mut m = mem();
        let id = m.allocate(ObjKind::Heap, "b".into(), 4, 0, false).unwrap();
        assert_eq!(m.live_heap_blocks(), 1);
        assert!(m.kill(id));
        assert!(!m.kill(id), "second free must be detected");
        assert!(matches!(m.lookup(id), Lookup::Dead(ObjKind::Heap)));
        assert_eq!(m.live_heap_blocks(), 0);
        let id2 = m.allocate(ObjKind::Heap, "c".into(), 4, 0, false).unwrap();
        assert_ne!(id, id2, "ids are never reused");
    }

    #[test]
    fn a_local_dies_with_its_block_and_restarts_indeterminate() {
        let mut m = mem();
        let id = m.allocate(ObjKind::Stack, "x".into(), 4, 0, false).unwrap();
        m.object_mut(id)
            .unwrap()
            .contents
            .write(0, 4, |o| o.copy_from_slice(&[7, 0, 0, 0]));
        m.end_lifetime(id);
        assert!(matches!(m.lookup(id), Lookup::OutOfScope));
        m.restart(id, 0);
        let o = m.object(id).unwrap();
        assert_eq!(
            (o.contents.read(0, 1)[0], o.contents.is_init(0, 1)),
            (0, false)
        );
        m.end_lifetime(id);
        assert!(!m.kill(id), "an ended local is not live at return");
        assert!(matches!(m.lookup(id), Lookup::Dead(ObjKind::Stack)));
    }

    #[test]
    fn an_untouched_local_restarts_live_and_indeterminate() {
        let mut m = mem();
        let id = m.allocate(ObjKind::Stack, "x".into(), 4, 0, false).unwrap();
        let indeterminate = |m: &Memory<u8>, fill: u8| {
            let o = m.object(id).expect("live");
            o.contents.read(0, 4).iter().all(|&b| b == fill) && !o.contents.is_init(0, 1)
        };
        // Its first lifetime right after the allocation, then again after its block was left.
        m.restart(id, 0);
        assert!(indeterminate(&m, 0));
        m.end_lifetime(id);
        m.restart(id, 0);
        assert!(indeterminate(&m, 0));
        // Another fill is written out; a write makes the next restart refill.
        m.restart(id, 5);
        assert!(indeterminate(&m, 5));
        m.object_mut(id).unwrap().contents.write(0, 1, |o| o[0] = 7);
        m.end_lifetime(id);
        m.restart(id, 5);
        assert!(indeterminate(&m, 5));
        assert!(m.kill(id), "a restarted local is live at return");
    }

    #[test]
    fn a_restart_leaves_a_forked_memory_its_bytes() {
        let mut m = mem();
        let id = m.allocate(ObjKind::Stack, "x".into(), 4, 0, false).unwrap();
        m.object_mut(id)
            .unwrap()
            .contents
            .write(0, 4, |o| o.copy_from_slice(&[7, 8, 9, 10]));
        let fork = m.clone();
        m.restart(id, 0);
        let (o, f) = (m.object(id).unwrap(), fork.object(id).unwrap());
        assert!(!o.contents.is_init(0, 1));
        assert_eq!(
            (f.contents.read(0, 4).to_vec(), f.contents.is_init(0, 4)),
            (vec![7, 8, 9, 10], true)
        );
        // Unshared now: restarted in place, again indeterminate after a write.
        m.object_mut(id).unwrap().contents.write(0, 2, |_| {});
        m.restart(id, 0);
        assert!(!m.object(id).unwrap().contents.is_init(0, 1));
        assert!(fork.object(id).unwrap().contents.is_init(0, 4));
    }

    #[test]
    fn arithmetic_leaving_an_object_is_detected() {
        let l = AddressLayout::LP64;
        let (address, leaves_object) = (|id, off| l.address(id, off), |b, r| l.leaves_object(b, r));
        let a = address(5, 16);
        // Within the region, and just below it (the upper half of the previous region holds no bytes).
        assert!(!leaves_object(a, a + (1 << 32)));
        assert!(!leaves_object(a, a - 17));
        // Into the part of the next region where its object's bytes are.
        assert!(leaves_object(a, address(6, 0)));
        assert!(leaves_object(a, address(4, 3)));
        // Null-based arithmetic is integer arithmetic.
        assert!(!leaves_object(64, address(6, 0)));
    }

    #[test]
    fn init_map_tracks_written_bytes() {
        let mut m = mem();
        let id = m
            .allocate(ObjKind::Stack, "x".into(), 100, 0, false)
            .unwrap();
        let o = m.object_mut(id).unwrap();
        let c = &mut o.contents;
        assert!(!c.is_init(0, 1));
        c.write(62, 4, |_| {});
        assert!(c.is_init(62, 4));
        assert!(!c.is_init(61, 2));
        assert_eq!(c.uninitialised(60, 8), vec![60, 61, 66, 67]);
    }

    #[test]
    fn copies_carry_initialisation() {
        let mut m = mem();
        let a = m.allocate(ObjKind::Stack, "a".into(), 8, 0, false).unwrap();
        let b = m.allocate_with(
            ObjKind::Global,
            "b".into(),
            vec![1, 2, 3, 4, 5, 6, 7, 8],
            false,
        );
        m.object_mut(a).unwrap().contents.write(0, 2, |_| {});
        let src = m.object(a).unwrap().clone();
        let dst = m.object_mut(b).unwrap();
        dst.contents.copy_from(4, &src.contents, 0, 4);
        assert!(dst.contents.is_init(0, 6));
        assert!(!dst.contents.is_init(6, 1));
        assert_eq!(dst.contents.flat().unwrap(), [1, 2, 3, 4, 0, 0, 0, 0]);
    }

    #[test]
    fn clones_share_until_written() {
        let mut m = mem();
        let id = m.allocate_with(ObjKind::Global, "g".into(), vec![1, 2], false);
        let snapshot = m.clone();
        m.object_mut(id).unwrap().contents.set_byte(0, 9);
        assert_eq!(snapshot.object(id).unwrap().contents.read(0, 1)[0], 1);
        assert_eq!(m.object(id).unwrap().contents.read(0, 1)[0], 9);
    }

    #[test]
    fn forks_allocate_and_free_independently() {
        let mut m = mem();
        let ids: Vec<_> = (0..200)
            .map(|i| {
                m.allocate(ObjKind::Heap, "h".into(), 1, i as u8, true)
                    .unwrap()
            })
            .collect();
        let mut fork = m.clone();
        assert!(fork.kill(ids[150]));
        let extra = fork
            .allocate(ObjKind::Heap, "x".into(), 1, 0, true)
            .unwrap();
        assert!(
            matches!(m.lookup(ids[150]), Lookup::Live(_)),
            "the original keeps its block"
        );
        assert!(
            matches!(m.lookup(extra), Lookup::Nothing),
            "and does not see the fork's"
        );
        assert!(matches!(fork.lookup(ids[150]), Lookup::Dead(ObjKind::Heap)));
        assert_eq!((m.live_heap_blocks(), fork.live_heap_blocks()), (200, 200));
        assert_eq!(m.object(ids[199]).unwrap().contents.flat().unwrap(), [199]);
    }

    #[test]
    fn overlapping_moves_behave_like_memmove() {
        let mut m = mem();
        let id = m.allocate_with(ObjKind::Global, "g".into(), vec![1, 2, 3, 4, 5], false);
        m.object_mut(id).unwrap().contents.move_within(1, 0, 4);
        assert_eq!(
            m.object(id).unwrap().contents.flat().unwrap(),
            [1, 1, 2, 3, 4]
        );
    }
}
