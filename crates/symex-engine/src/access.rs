//! Checked memory access: which object a pointer refers to, whether the access is within its bounds and
//! lifetime, and loading uninitialised bytes as inputs. Instructions and library models both go through here.

use crate::bug::{BugKind, End};
use crate::domain::{BinOp, CastOp, CmpOp, Decision, Domain, InputRequest};
use crate::memory::{Lookup, ObjId, ObjKind, Object};
use crate::program::Program;
use crate::provenance::{PointerBytes, Provenance, ProvenanceMap};
use crate::state::State;
use crate::storage;

/// Most uninitialised bytes one copy turns into inputs (so that the copy and the original hold the same
/// unknown); a larger copy ends the path as unsupported.
pub const MAX_UNINIT_COPY: u64 = 1 << 20;
/// Most bytes one copy moves one by one (each may become a host-side term); larger copies must share
/// whole pages.
pub const MAX_BYTE_COPY: u64 = 1 << 26;

/// Host bytes from which a copy checks the memory budget before it starts (see [`crate::budget`]).
const BUDGETED_COPY: u64 = 1 << 20;

/// A resolved access: object and offset within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub obj: ObjId,
    pub off: usize,
}

/// Where an access at a symbolic offset ended up: a place to access, or already carried out in place.
enum Target<R> {
    Place(Place),
    Done(R),
}

/// Whether an access reads or writes (writes to read-only objects are bugs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

impl<D: Domain> State<D> {
    /// A bug of `kind` at the current instruction.
    pub fn bug(&self, prog: &Program, kind: BugKind, message: impl Into<String>) -> End {
        End::Bug(crate::bug::Bug {
            kind,
            loc: self.location(prog),
            message: message.into(),
            suffix: None,
        })
    }

    /// `ptr + k`, wrapping at the target's pointer width.
    pub fn ptr_add(&mut self, ptr: &D::Val, k: u64) -> D::Val {
        let kv = self.dom.constant(64, k as u128);
        let p = self.dom.binop(BinOp::Add, 64, ptr, &kv);
        self.wrap_ptr(p)
    }

    /// A pointer value (a 64-bit scalar) cut to the target's pointer width: on a 32-bit target pointer
    /// arithmetic wraps at 32 bits, and every pointer value stays below 2^32.
    #[inline(always)]
    pub fn wrap_ptr(&mut self, p: D::Val) -> D::Val {
        let bits = self.mem.layout().pointer_bits;
        if bits >= 64 {
            return p;
        }
        let low = self.dom.cast(CastOp::Trunc, 64, bits, &p);
        self.dom.cast(CastOp::ZExt, bits, 64, &low)
    }

    /// Resolves `ptr` for an access of `n` bytes: decides which object it refers to, checks that the object
    /// is alive and that the access lies within it.
    #[inline(always)]
    pub fn resolve(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        n: u64,
        access: Access,
    ) -> Result<Place, End> {
        // A known address that is plainly valid needs no question asked: the general path below would
        // answer every decision the same way (its conditions are constants).
        if let Some(p) = self.dom.as_const(ptr) {
            let (id, off) = self.mem.layout().split(p as u64);
            if let Some(o) = self.mem.object(id) {
                if off + n <= o.size() && !(o.read_only && access == Access::Write) {
                    return Ok(Place {
                        obj: id,
                        off: off as usize,
                    });
                }
            }
            if let Some(place) = self.fixed_place(p as u64, n) {
                return Ok(place);
            }
        }
        self.resolve_general(prog, ptr, n, access)
    }

    /// The place of an `n`-byte access at the known address `addr` inside an object the program placed
    /// there (`klee_define_fixed_object`).
    fn fixed_place(&self, addr: u64, n: u64) -> Option<Place> {
        self.fixed_objects
            .iter()
            .find(|&&(base, size, _)| {
                addr >= base && addr.checked_add(n).is_some_and(|e| e <= base + size)
            })
            .map(|&(base, _, obj)| Place {
                obj,
                off: (addr - base) as usize,
            })
    }

    /// [`Self::resolve`] for symbolic addresses and for every failing access.
    fn resolve_general(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        n: u64,
        access: Access,
    ) -> Result<Place, End> {
        let (obj, offv) = self.resolve_object(prog, ptr, n, access)?;
        let off = self.dom.choose(Decision::PointerOffset, &offv, 64) as usize;
        Ok(Place { obj, off })
    }

    /// The object id of a pointer (the address bits above the offset, see [`crate::memory::AddressLayout::address`]) as a
    /// 32-bit value.
    pub fn pointer_object(&mut self, ptr: &D::Val) -> D::Val {
        let shift = self.dom.constant(64, self.mem.layout().offset_bits as u128);
        let hi = self.dom.binop(BinOp::LShr, 64, ptr, &shift);
        self.dom.cast(CastOp::Trunc, 64, 32, &hi)
    }

    /// The object whose provenance a pointer carries ([`crate::memory::AddressLayout::owner`]) as a 32-bit
    /// value: the object it was derived from while it stays within half a region of it.
    pub fn pointer_owner(&mut self, ptr: &D::Val) -> D::Val {
        let half = self
            .dom
            .constant(64, self.mem.layout().max_object_size() as u128);
        let shifted = self.dom.binop(BinOp::Add, 64, ptr, &half);
        self.pointer_object(&shifted)
    }

    /// The offset of a pointer within its object's region, as a 64-bit value.
    pub fn pointer_offset(&mut self, ptr: &D::Val) -> D::Val {
        let mask = self
            .dom
            .constant(64, self.mem.layout().offset_mask() as u128);
        self.dom.binop(BinOp::And, 64, ptr, &mask)
    }

    /// [`Self::resolve_general`] up to the offset, which stays a (64-bit) value of the domain.
    pub(crate) fn resolve_object(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        n: u64,
        access: Access,
    ) -> Result<(ObjId, D::Val), End> {
        // A known pointer names its object by its address bits (a known offset before the object is
        // blamed on it by `before_next_object`). A symbolic one is resolved by its provenance: `x + k`
        // with `k` possibly negative stays `x`'s, where its address bits would name the object below.
        let idv = if self.dom.as_const(ptr).is_some() {
            self.pointer_object(ptr)
        } else {
            self.pointer_owner(ptr)
        };
        let id = self.dom.choose(Decision::PointerObject, &idv, 32) as ObjId;
        let verb = if access == Access::Read {
            "read"
        } else {
            "write"
        };
        if id == self.mem.layout().lost_id() {
            // Natively the pointer may be back in its object: neither a finding nor a safe access.
            return Err(crate::exec::unsupported(
                self,
                prog,
                format!(
                    "{verb} through a pointer moved back from more than {} bytes away from its object (its provenance is lost)",
                    self.mem.layout().max_object_size()
                ),
            ));
        }
        if let Some(bug) = self.before_next_object(prog, id, ptr, n, verb) {
            return Err(bug);
        }
        let (size, read_only) = match self.mem.lookup(id) {
            Lookup::Live(o) => (o.size(), o.read_only),
            Lookup::Nothing if id == 0 => {
                return Err(self.bug(
                    prog,
                    BugKind::NullDeref,
                    format!("{n}-byte {verb} through a null pointer"),
                ))
            }
            Lookup::Nothing => {
                return Err(self.bug(
                    prog,
                    BugKind::OutOfBounds,
                    format!("{n}-byte {verb} through a pointer to no object"),
                ))
            }
            Lookup::Dead(kind) => return Err(self.lifetime_bug(prog, kind, verb)),
            Lookup::OutOfScope => {
                return Err(self.bug(
                    prog,
                    BugKind::UseAfterFree,
                    format!("{verb} of a local variable whose block was left"),
                ))
            }
            Lookup::Function(f) => {
                let name = &prog.module().func(symex_ir::FuncId(f)).name;
                return Err(self.bug(
                    prog,
                    BugKind::OutOfBounds,
                    format!("{verb} of the code of function `{name}`"),
                ));
            }
        };
        let offv = self.pointer_offset(ptr);
        let nv = self.dom.constant(64, n as u128);
        let end = self.dom.binop(BinOp::Add, 64, &offv, &nv);
        let sizev = self.dom.constant(64, size as u128);
        let in_bounds = self.dom.cmp(CmpOp::Ule, 64, &end, &sizev);
        if !self.dom.decide(Decision::InBounds, &in_bounds) {
            let at = match self.dom.as_const(&offv) {
                Some(o) => format!("offset {o}"),
                None => "a symbolic offset".to_string(),
            };
            let name = self
                .mem
                .object(id)
                .map(|o| o.name.clone())
                .unwrap_or_default();
            return Err(self.bug(
                prog,
                BugKind::OutOfBounds,
                format!("{n}-byte {verb} at {at} of `{name}` (size {size})"),
            ));
        }
        if read_only && access == Access::Write {
            let name = self
                .mem
                .object(id)
                .map(|o| o.name.clone())
                .unwrap_or_default();
            return Err(self.bug(
                prog,
                BugKind::OutOfBounds,
                format!("write to read-only `{name}`"),
            ));
        }
        Ok((id, offv))
    }

    /// An access a little before object `id + 1` (`x[-1]`) has an address whose high bits name object `id`
    /// at an offset near 2^32. Such an offset never lies inside object `id` when the access fails there, so
    /// the access is blamed on the object it came from: `id + 1`, at the negative offset. Only for a known
    /// offset that is "negative" (at least 2^31) and an access that does not fit object `id`.
    fn before_next_object(
        &mut self,
        prog: &Program,
        id: ObjId,
        ptr: &D::Val,
        n: u64,
        verb: &str,
    ) -> Option<End> {
        let layout = prog.addr;
        let offv = self.dom.cast(CastOp::Trunc, 64, layout.offset_bits, ptr);
        let off = self.dom.as_const(&offv)? as u64;
        if off < layout.max_object_size() {
            return None;
        }
        if let Lookup::Live(o) = self.mem.lookup(id) {
            if off + n <= o.size() {
                return None;
            }
        }
        let next = id.checked_add(1)?;
        match self.mem.lookup(next) {
            Lookup::Live(o) => {
                let (name, size) = (o.name.clone(), o.size());
                let before = layout.offset_mask() + 1 - off;
                Some(self.bug(
                    prog,
                    BugKind::OutOfBounds,
                    format!("{n}-byte {verb} at offset -{before} of `{name}` (size {size})"),
                ))
            }
            Lookup::Dead(kind) => Some(self.lifetime_bug(prog, kind, verb)),
            Lookup::Function(_) | Lookup::Nothing | Lookup::OutOfScope => None,
        }
    }

    fn lifetime_bug(&self, prog: &Program, kind: ObjKind, verb: &str) -> End {
        let what = match kind {
            ObjKind::Heap => "a freed heap block",
            ObjKind::Stack => "a local variable whose function has returned",
            _ => "a dead object",
        };
        self.bug(prog, BugKind::UseAfterFree, format!("{verb} of {what}"))
    }

    /// Makes bytes `off..off+n` of the object initialised: bytes never written are inputs, requested now.
    pub(crate) fn ensure_init(&mut self, place: Place, n: usize) {
        let Some(o) = self.mem.object(place.obj) else {
            return;
        };
        if o.contents.is_init(place.off, n) {
            return;
        }
        let missing = o.contents.uninitialised(place.off, n);
        let name = o.name.clone();
        let bytes = self
            .dom
            .input(InputRequest::Uninitialised(&name), missing.len());
        if let Some(o) = self.mem.object_mut(place.obj) {
            for (i, b) in missing.into_iter().zip(bytes) {
                o.contents.set_byte(i, b);
            }
        }
    }

    /// Loads a `w`-bit scalar stored in `n` bytes at `ptr`.
    #[inline]
    pub fn load_scalar(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        n: u64,
        w: u32,
    ) -> Result<D::Val, End> {
        self.load_scalar_reporting(prog, ptr, n, w, false)
            .map(|(v, _)| v)
    }

    /// [`Self::load_scalar`], also saying whether the bytes read were stored as a pointer (see
    /// `provenance.rs`). The common case (a known address, plainly accessible, its bytes written) is
    /// inlined where loads execute; the rest is [`Self::load_scalar_general`]. Without `report` (a
    /// load of a pointer, which keeps its bytes' provenance whatever they were) the common case leaves
    /// the provenance map unread and says `None`: a pointer load is as frequent as an integer one.
    #[inline(always)]
    pub fn load_scalar_reporting(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        n: u64,
        w: u32,
        report: bool,
    ) -> Result<(D::Val, PointerBytes), End> {
        match self.load_scalar_plain(ptr, n, w, report) {
            Some(r) => Ok(r),
            None => self.load_scalar_general(prog, ptr, n, w),
        }
    }

    /// The common case of [`Self::load_scalar_reporting`], or `None` past it. It cannot fail, so the
    /// run loop tries it before it sets the frame's cursor that a failure reports.
    #[inline(always)]
    pub(crate) fn load_scalar_plain(
        &mut self,
        ptr: &D::Val,
        n: u64,
        w: u32,
        report: bool,
    ) -> Option<(D::Val, PointerBytes)> {
        let addr = self.dom.as_const(ptr)?;
        let (id, off) = self.mem.layout().split(addr as u64);
        let o = self.mem.object(id)?;
        let bytes = o.contents.plain_read(off, n, o.kind == ObjKind::Heap)?;
        let seen = if report {
            let pointer_bytes = (self.mem.layout().pointer_bits / 8) as u64;
            o.provenance.pointer_bytes(off, n, pointer_bytes)
        } else {
            PointerBytes::None
        };
        Some((self.dom.bytes_to_val(bytes, w), seen))
    }

    /// [`Self::load_scalar_reporting`] past its common case.
    #[inline(never)]
    pub(crate) fn load_scalar_general(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        n: u64,
        w: u32,
    ) -> Result<(D::Val, PointerBytes), End> {
        let mut in_place_from = None;
        let read_in_place = |st: &mut Self, obj: ObjId, offv: &D::Val| {
            in_place_from = Some(obj);
            let bytes = st.mem.object(obj)?.contents.flat()?;
            st.dom.select(bytes, offv, n as usize, w)
        };
        match self.target(prog, ptr, n, Access::Read, read_in_place)? {
            // Read at an offset not fixed: any pointer byte of the object may be among the bytes read.
            Target::Done(v) => {
                let some_pointer = in_place_from
                    .and_then(|id| self.mem.object(id))
                    .is_some_and(|o| o.provenance.contains(Provenance::Pointer));
                let seen = if some_pointer {
                    PointerBytes::Part
                } else {
                    PointerBytes::None
                };
                Ok((v, seen))
            }
            Target::Place(place) => {
                let o = self.mem.object(place.obj).expect("resolved object is live");
                let pointer_bytes = (self.mem.layout().pointer_bits / 8) as u64;
                let seen = o
                    .provenance
                    .pointer_bytes(place.off as u64, n, pointer_bytes);
                if let Some(bytes) = o.contents.read_written(place.off, n as usize) {
                    return Ok((self.dom.bytes_to_val(bytes, w), seen));
                }
                let v = self.read_initialised(place, n as usize, |dom, b| dom.bytes_to_val(b, w));
                Ok((v, seen))
            }
        }
    }

    /// Where an `n`-byte access at `ptr` goes. At a non-constant offset of a wholly initialised object, a
    /// symbolic domain may first carry the access out without fixing the offset (`in_place`, see
    /// [`Domain::select`] and [`Domain::update`]; partly uninitialised objects are excluded because which
    /// bytes become inputs or initialised would depend on the offset); when it declines, the offset is
    /// fixed with [`Domain::choose`].
    #[inline]
    fn target<R>(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        n: u64,
        access: Access,
        in_place: impl FnOnce(&mut Self, ObjId, &D::Val) -> Option<R>,
    ) -> Result<Target<R>, End> {
        if self.dom.as_const(ptr).is_some() {
            let place = self.resolve(prog, ptr, n, access)?;
            self.init_heap_block(place.obj);
            return Ok(Target::Place(place));
        }
        let (obj, offv) = self.resolve_object(prog, ptr, n, access)?;
        self.init_heap_block(obj);
        // The domain's in-place accesses take a 32-bit offset and the whole object as one slice: small
        // (flat) objects, the access being within bounds.
        let whole = |o: &Object<D::Byte>| {
            o.contents.flat().is_some() && o.contents.is_init(0, o.size() as usize)
        };
        if self.dom.as_const(&offv).is_none() && self.mem.object(obj).is_some_and(whole) {
            let off32 = self.dom.cast(CastOp::Trunc, 64, 32, &offv);
            if let Some(r) = in_place(self, obj, &off32) {
                return Ok(Target::Done(r));
            }
        }
        let off = self.dom.choose(Decision::PointerOffset, &offv, 64) as usize;
        Ok(Target::Place(Place { obj, off }))
    }

    /// The bytes of a (flat) heap block never written become inputs at its first scalar access, all at
    /// once, whether the offset is known or not: a write at a symbolic offset then finds the block
    /// initialised and is carried out in place (as KLEE writes once) where it forked per offset, and the
    /// replay of a test, whose offsets are known, asks for the same inputs in the same order.
    #[inline(always)]
    fn init_heap_block(&mut self, id: ObjId) {
        let Some(o) = self.mem.object(id) else {
            return;
        };
        if o.kind != ObjKind::Heap || !o.contents.flat_with_uninitialised() {
            return;
        }
        let size = o.size() as usize;
        self.ensure_init(Place { obj: id, off: 0 }, size);
        if let Some(o) = self.mem.object_mut(id) {
            o.contents.settle_init();
        }
    }

    /// Loads an `n`-byte aggregate at `ptr`: its bytes and their provenance (a union holding a pointer
    /// stays one when copied by value, see `provenance.rs`).
    pub fn load_aggregate(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        n: u64,
    ) -> Result<(Vec<D::Byte>, ProvenanceMap), End> {
        let place = self.resolve(prog, ptr, n, Access::Read)?;
        let provenance = self
            .mem
            .object(place.obj)
            .map(|o| o.provenance.slice(place.off as u64, n))
            .unwrap_or_default();
        let bytes = self.read_initialised(place, n as usize, |_, b| b.to_vec());
        Ok((bytes, provenance))
    }

    /// The one read path of loads: bytes `off..off+n` of the resolved place, made initialised first
    /// (bytes never written become inputs), handed to `read` with the domain.
    #[inline]
    fn read_initialised<R>(
        &mut self,
        place: Place,
        n: usize,
        read: impl FnOnce(&mut D, &[D::Byte]) -> R,
    ) -> R {
        self.ensure_init(place, n);
        let o = self.mem.object(place.obj).expect("resolved object is live");
        read(&mut self.dom, &o.contents.read(place.off, n))
    }

    /// Stores the `w`-bit scalar `v` into `n` bytes at `ptr`.
    #[inline]
    pub fn store_scalar(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        v: &D::Val,
        n: u64,
        w: u32,
    ) -> Result<(), End> {
        self.store_scalar_as(prog, ptr, v, n, w, None)
    }

    /// [`Self::store_scalar`] of a value stored as a pointer or as an integer (`kind`; `None`: not known),
    /// recorded in the object's provenance map. The common case (a known address plainly accessible
    /// for writing: its object looked up once) is inlined where stores execute; the rest is
    /// [`Self::store_scalar_general`].
    #[inline(always)]
    pub fn store_scalar_as(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        v: &D::Val,
        n: u64,
        w: u32,
        kind: Option<Provenance>,
    ) -> Result<(), End> {
        if self.store_scalar_plain(ptr, v, n, w, kind) {
            return Ok(());
        }
        self.store_scalar_general(prog, ptr, v, n, w, kind)
    }

    /// The common case of [`Self::store_scalar_as`], carried out; `false` (nothing done) past it. It
    /// cannot fail, so the run loop tries it before it sets the frame's cursor that a failure reports.
    #[inline(always)]
    pub(crate) fn store_scalar_plain(
        &mut self,
        ptr: &D::Val,
        v: &D::Val,
        n: u64,
        w: u32,
        kind: Option<Provenance>,
    ) -> bool {
        let Some(addr) = self.dom.as_const(ptr) else {
            return false;
        };
        let (id, off) = self.mem.layout().split(addr as u64);
        let dom = &mut self.dom;
        let Some(o) = self
            .mem
            .object_mut_where(id, |o| plain(o, off, n, Access::Write))
        else {
            return false;
        };
        match o.contents.written_flat_mut(off as usize, n as usize) {
            Some(out) => dom.val_to_bytes(v, w, out),
            None => o
                .contents
                .write(off as usize, n as usize, |out| dom.val_to_bytes(v, w, out)),
        }
        o.provenance.set(off, n, kind);
        true
    }

    /// [`Self::store_scalar_as`] past its common case.
    #[inline(never)]
    pub(crate) fn store_scalar_general(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        v: &D::Val,
        n: u64,
        w: u32,
        kind: Option<Provenance>,
    ) -> Result<(), End> {
        let mut in_place_to = None;
        let write_in_place = |st: &mut Self, obj: ObjId, offv: &D::Val| {
            let bytes = st.mem.object_mut(obj)?.contents.flat_mut()?;
            let done = st.dom.update(bytes, offv, v, n as usize, w);
            if done {
                in_place_to = Some(obj);
            }
            done.then_some(())
        };
        match self.target(prog, ptr, n, Access::Write, write_in_place)? {
            Target::Place(place) => {
                self.write_place(place, n as usize, kind, |dom, out| {
                    dom.val_to_bytes(v, w, out)
                });
            }
            // Written at an offset not fixed: any byte may now hold the value (over-approximated: a
            // pointer makes every byte a possible pointer, anything else unmakes every integer byte).
            Target::Done(()) => {
                if let Some(o) = in_place_to.and_then(|id| self.mem.object_mut(id)) {
                    if kind == Some(Provenance::Pointer) {
                        let size = o.size();
                        o.provenance.all_pointers(size);
                    } else {
                        o.provenance.forget_integers();
                    }
                }
            }
        }
        Ok(())
    }

    /// Stores the aggregate `bytes` at `ptr`, recording `provenance` for them (the leaves of its type
    /// overlaid with what the value carries, see [`crate::provenance::scalar_leaves`]).
    pub fn store_aggregate(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        bytes: &[D::Byte],
        provenance: &ProvenanceMap,
    ) -> Result<(), End> {
        let n = bytes.len() as u64;
        let place = self.resolve(prog, ptr, n, Access::Write)?;
        self.write_place(place, n as usize, None, |_, out| {
            out.clone_from_slice(bytes)
        });
        let o = self
            .mem
            .object_mut(place.obj)
            .expect("resolved object is live");
        o.provenance
            .overlay(place.off as u64, &provenance.slice(0, n));
        Ok(())
    }

    /// Stores `bytes` at `ptr`.
    pub fn store_bytes(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        bytes: &[D::Byte],
    ) -> Result<(), End> {
        self.write_with(prog, ptr, bytes.len() as u64, |_, out| {
            out.clone_from_slice(bytes)
        })
    }

    /// The one write path of stores and `memset`: resolves `n` bytes at `ptr` for writing, lets `write`
    /// fill them (with the domain at hand) and marks them initialised.
    #[inline]
    fn write_with(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        n: u64,
        write: impl FnOnce(&mut D, &mut [D::Byte]),
    ) -> Result<(), End> {
        let place = self.resolve(prog, ptr, n, Access::Write)?;
        self.write_place(place, n as usize, None, write);
        Ok(())
    }

    /// Bytes `off..off+n` of a resolved place, filled by `write`, marked initialised and recorded as
    /// written with provenance `kind` (`None`: not known).
    #[inline]
    fn write_place(
        &mut self,
        place: Place,
        n: usize,
        kind: Option<Provenance>,
        write: impl FnOnce(&mut D, &mut [D::Byte]),
    ) {
        let o = self
            .mem
            .object_mut(place.obj)
            .expect("resolved object is live");
        o.contents
            .write(place.off, n, |out| write(&mut self.dom, out));
        o.provenance.set(place.off as u64, n as u64, kind);
    }

    /// `memmove(dst, src, n)`. Uninitialised source bytes become inputs first, so that the copy and the
    /// original hold the same unknown value (a copy of an indeterminate byte is that byte, C11 6.2.6.1p4;
    /// copying the "uninitialised" mark instead made each side a separate input). Zero-length copies
    /// touch nothing.
    pub fn copy_memory(
        &mut self,
        prog: &Program,
        dst: &D::Val,
        src: &D::Val,
        n: u64,
    ) -> Result<(), End> {
        if n == 0 || self.copy_plainly(src, dst, n) {
            return Ok(());
        }
        let Some((s, d)) = self.copy_places(prog, dst, src, n)? else {
            return Ok(());
        };
        let n = n as usize;
        if s.obj == d.obj {
            self.mem
                .object_mut(d.obj)
                .expect("live")
                .move_within(d.off, s.off, n);
        } else {
            let src_obj = self.mem.object_shared(s.obj).expect("live");
            self.mem
                .object_mut(d.obj)
                .expect("live")
                .copy_bytes_from(d.off, &src_obj, s.off, n);
        }
        Ok(())
    }

    /// The places of a copy of `n` bytes that is not plain ([`Self::plain_copy`]), resolved and checked
    /// (its uninitialised source bytes made inputs); `None` when it was carried out as a fill
    /// ([`Self::copy_uniform`]). Out of line: the plain copy's path, the common one, stays small.
    #[inline(never)]
    fn copy_places(
        &mut self,
        prog: &Program,
        dst: &D::Val,
        src: &D::Val,
        n: u64,
    ) -> Result<Option<(Place, Place)>, End> {
        let s = self.resolve(prog, src, n, Access::Read)?;
        let d = self.resolve(prog, dst, n, Access::Write)?;
        if self.copy_uniform(s, d, n as usize) {
            return Ok(None);
        }
        self.copyable(prog, s, d, n as usize)?;
        self.ensure_init(s, n as usize);
        Ok(Some((s, d)))
    }

    /// Carries out a copy of `n` bytes that needs no more than its bytes and their provenance copied:
    /// known addresses inside live flat objects (the destination writable), every source byte written,
    /// and few enough bytes for the budget to need no look; false (nothing done) for any other. For
    /// such a copy, [`Self::resolve`] answers both without a question, [`Self::copyable`] and the
    /// budget let it through, no byte becomes an input, and a copy of a uniform range as a fill makes
    /// the same bytes: the general path would only copy. (`memcpy` of a struct by value, as frequent as
    /// calls in C: each object is looked up once.)
    #[inline]
    fn copy_plainly(&mut self, src: &D::Val, dst: &D::Val, n: u64) -> bool {
        if n.saturating_mul(std::mem::size_of::<D::Byte>() as u64 + 1) >= BUDGETED_COPY {
            return false;
        }
        let (Some(sa), Some(da)) = (self.dom.as_const(src), self.dom.as_const(dst)) else {
            return false;
        };
        let layout = self.mem.layout();
        let ((sid, soff), (did, doff)) = (layout.split(sa as u64), layout.split(da as u64));
        let writable = |o: &Object<D::Byte>| {
            !o.read_only
                && o.contents
                    .flat()
                    .is_some_and(|b| doff + n <= b.len() as u64)
        };
        if sid == did {
            // Within one object (no handle on it held, so that writing it copies nothing).
            let plain = self
                .mem
                .object(sid)
                .is_some_and(|o| writable(o) && o.contents.plain_read(soff, n, false).is_some());
            if plain {
                let o = self.mem.object_mut(did).expect("live");
                o.move_within(doff as usize, soff as usize, n as usize);
            }
            return plain;
        }
        let Some(so) = self.mem.object_shared(sid) else {
            return false;
        };
        let Some(bytes) = so.contents.plain_read(soff, n, false) else {
            return false;
        };
        let Some(d) = self.mem.object_mut_where(did, writable) else {
            return false;
        };
        let out = d
            .contents
            .written_flat_mut(doff as usize, n as usize)
            .expect("a flat object");
        out.clone_from_slice(bytes);
        d.provenance.copy_from(doff, &so.provenance, soff, n);
        true
    }

    /// Copies `n` bytes as a fill when the source bytes are one uniform range (a `memset` region, a
    /// zero-filled block; see [`crate::storage::Contents::uniform_run`]): the destination then holds
    /// that byte throughout, overlap or not, stored as shared pages, so the copy costs the same for any
    /// length and needs no byte-by-byte limit. False (nothing done) otherwise.
    fn copy_uniform(&mut self, s: Place, d: Place, n: usize) -> bool {
        let src = self.mem.object(s.obj).expect("resolved object is live");
        let Some((b, run)) = src.contents.uniform_run(s.off as u64, n as u64) else {
            return false;
        };
        if run < n as u64 {
            return false;
        }
        let prov = src.provenance.slice(s.off as u64, n as u64);
        let o = self.mem.object_mut(d.obj).expect("resolved object is live");
        o.contents.fill(d.off, n, b);
        o.provenance.copy_from(d.off as u64, &prov, 0, n as u64);
        true
    }

    /// A copy the host can carry out in bounded memory: at most [`MAX_UNINIT_COPY`] uninitialised source
    /// bytes (each becomes an input first), and at most [`MAX_BYTE_COPY`] bytes copied one by one (copies
    /// of whole pages at equal page offsets share pages and cost nothing). Otherwise the path ends as
    /// unsupported: never a host-memory abort.
    pub(crate) fn copyable(
        &mut self,
        prog: &Program,
        s: Place,
        d: Place,
        n: usize,
    ) -> Result<(), End> {
        let src = self.mem.object(s.obj).expect("live");
        let missing = src.contents.count_uninitialised(s.off, n);
        let shares_pages = n as u64 > storage::FLAT_MAX
            && s.off as u64 % storage::PAGE == d.off as u64 % storage::PAGE
            && src.size() > storage::FLAT_MAX
            && self
                .mem
                .object(d.obj)
                .is_some_and(|o| o.size() > storage::FLAT_MAX);
        if missing > MAX_UNINIT_COPY || (n as u64 > MAX_BYTE_COPY && !shares_pages) {
            return Err(crate::exec::unsupported(
                self,
                prog,
                format!(
                    "a copy of {n} bytes ({missing} of them uninitialised) larger than the memory model copies"
                ),
            ));
        }
        // The host memory the copy takes (each byte copied one by one is a byte of the domain and a bit
        // of an initialisation map; shared pages cost nothing) must fit the budget: a copy past it ends
        // the path at the limit, never the process. Small copies are left to the explorer's check
        // between steps (measuring costs a read of /proc).
        let host = if shares_pages {
            0
        } else {
            (n as u64).saturating_mul(std::mem::size_of::<D::Byte>() as u64 + 1)
        };
        if host < BUDGETED_COPY {
            return Ok(());
        }
        if let Err(why) = crate::budget::allows(host) {
            return Err(End::Halt(crate::bug::Halt::Limit(format!(
                "{why} (a copy of {n} bytes needs about {} MiB of host memory)",
                host >> 20
            ))));
        }
        Ok(())
    }

    /// `memset(dst, byte, n)`.
    pub fn fill_memory(
        &mut self,
        prog: &Program,
        dst: &D::Val,
        byte: &D::Val,
        n: u64,
    ) -> Result<(), End> {
        if n == 0 {
            return Ok(());
        }
        let place = self.resolve(prog, dst, n, Access::Write)?;
        let mut b = [self.dom.const_byte(0)];
        self.dom.val_to_bytes(byte, 8, &mut b);
        let [b] = b;
        let o = self
            .mem
            .object_mut(place.obj)
            .expect("resolved object is live");
        o.contents.fill(place.off, n as usize, b);
        // The bytes now hold no pointer (as a store of each byte records).
        o.provenance.set(place.off as u64, n, None);
        Ok(())
    }

    /// The byte at `ptr + i` as an 8-bit value.
    pub fn load_byte_at(&mut self, prog: &Program, ptr: &D::Val, i: u64) -> Result<D::Val, End> {
        let p = self.ptr_add(ptr, i);
        self.load_scalar(prog, &p, 1, 8)
    }

    /// The uniform range at `ptr + i` when that is a known address inside a live object: its byte (as
    /// an 8-bit value) and how many bytes from there (at most `max`, within the object) are written and
    /// equal to it ([`crate::storage::Contents::uniform_run`]: one constant, or one symbolic byte as a
    /// `memset` with an input value stores it). `None` otherwise: the caller reads byte by byte, which
    /// also reports an access outside the object. Reading the range is valid exactly when reading each
    /// of its bytes is (the same conditions as [`Self::resolve`]'s known-address case).
    pub fn uniform_run_at(&mut self, ptr: &D::Val, i: u64, max: u64) -> Option<(D::Val, u64)> {
        let p = self.ptr_add(ptr, i);
        let addr = self.dom.as_const(&p)? as u64;
        let (id, off) = self.mem.layout().split(addr);
        let (b, run) = self.mem.object(id)?.contents.uniform_run(off, max)?;
        Some((self.dom.bytes_to_val(&[b], 8), run))
    }

    /// How many bytes of the object `ptr + i` lies in follow it (itself included), when that is a known
    /// address inside a live object: how far a range may be written there before a byte-by-byte store
    /// reports the bound.
    pub fn room_at(&mut self, ptr: &D::Val, i: u64) -> Option<u64> {
        let p = self.ptr_add(ptr, i);
        let addr = self.dom.as_const(&p)? as u64;
        let (id, off) = self.mem.layout().split(addr);
        let o = self.mem.object(id)?;
        (off < o.size()).then(|| o.size() - off)
    }

    /// The NUL-terminated string at `ptr` (without the NUL), for output and for arguments a model needs
    /// concretely. Where the string ends is decided like a branch (it decides how far memory is read and
    /// what `puts` and `printf` return); the other bytes' values are only printed, so each is fixed to one
    /// value of the path without constraining it.
    pub fn read_c_string(&mut self, prog: &Program, ptr: &D::Val) -> Result<Vec<u8>, End> {
        self.read_c_string_at_most(prog, ptr, None)
    }

    /// [`Self::read_c_string`] that stops after `max` bytes when given (`printf`'s `%.Ns`).
    pub fn read_c_string_at_most(
        &mut self,
        prog: &Program,
        ptr: &D::Val,
        max: Option<u64>,
    ) -> Result<Vec<u8>, End> {
        let max = max.unwrap_or(u64::MAX);
        let (mut out, ended) = self.known_string_prefix(ptr, max);
        if ended {
            return Ok(out);
        }
        let zero = self.dom.constant(8, 0);
        for i in out.len() as u64..max {
            // A printed string may run over hundreds of MiB: the budget holds inside the call.
            if let Some(why) = crate::budget::poll() {
                return Err(End::Halt(crate::bug::Halt::Limit(format!(
                    "{why} (inside a library function reading a string)"
                ))));
            }
            let b = self.load_byte_at(prog, ptr, i)?;
            let is_nul = self.dom.cmp(CmpOp::Eq, 8, &b, &zero);
            if self.dom.decide(Decision::LibraryBranch, &is_nul) {
                break;
            }
            out.push(self.dom.choose(Decision::Output, &b, 8) as u8);
        }
        Ok(out)
    }

    /// The first bytes (at most `max`) of the string at the known address `ptr` that are known,
    /// written, within the object and no pointer's, read straight from the object, and whether the NUL
    /// among them ended the string. Byte by byte through [`Self::load_byte_at`] they would give the same
    /// bytes with no decision taken (a program prints many literal strings); the first other byte is
    /// left to that general path, which reports it (out of bounds, uninitialised, symbolic).
    fn known_string_prefix(&self, ptr: &D::Val, max: u64) -> (Vec<u8>, bool) {
        let mut out = Vec::new();
        let Some(addr) = self.dom.as_const(ptr) else {
            return (out, false);
        };
        let (id, off) = self.mem.layout().split(addr as u64);
        let Some(o) = self.mem.object(id) else {
            return (out, false);
        };
        let Some(bytes) = o.contents.flat() else {
            return (out, false);
        };
        let from = off as usize;
        let to = bytes
            .len()
            .min(from.saturating_add(usize::try_from(max).unwrap_or(usize::MAX)));
        // The common case first: known bytes up to a NUL, all written and none a pointer's, checked as
        // one range (per byte, the two checks cost several times the copy of a printed string).
        let known = bytes
            .get(from..to)
            .unwrap_or(&[])
            .iter()
            .map(|b| self.dom.byte_as_const(b))
            .position(|c| c.is_none_or(|c| c == 0));
        if let Some(len) = known {
            let n = len + 1;
            if self.dom.byte_as_const(&bytes[from + len]) == Some(0)
                && o.contents.is_init(from, n)
                && !o.provenance.any(from as u64, n as u64, Provenance::Pointer)
            {
                // Every one of these bytes is known (the scan stopped at the first that is not).
                let known = bytes[from..from + len].iter();
                out.extend(known.map(|b| self.dom.byte_as_const(b).unwrap_or(0)));
                return (out, true);
            }
        }
        for (at, b) in bytes.iter().enumerate().take(to).skip(from) {
            if !o.contents.is_init(at, 1) || o.provenance.any(at as u64, 1, Provenance::Pointer) {
                break;
            }
            match self.dom.byte_as_const(b) {
                Some(0) => return (out, true),
                Some(c) => out.push(c),
                None => break,
            }
        }
        (out, false)
    }
}

/// Whether an `n`-byte access at offset `off` of the live object `o` is one the general path
/// (`State::target`) would carry out without a question or a side effect: inside the object, not a
/// write to a read-only one, not a heap block whose never-written bytes its first access turns into
/// inputs. Scalar stores, among the most frequent instructions, then look their object up once (loads
/// ask [`crate::storage::Contents::plain_read`] the same).
#[inline(always)]
fn plain<B: Clone>(o: &Object<B>, off: u64, n: u64, access: Access) -> bool {
    !(access == Access::Write && o.read_only)
        && o.contents.plainly_within(off, n, o.kind == ObjKind::Heap)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bug::BugKind;
    use crate::concrete::Concrete;
    use crate::memory::AddressLayout;
    use crate::state::Checks;
    use crate::testfile::TestInput;
    use symex_ir::{Module, Target, TypeInfo, TypeKind};

    fn empty_program() -> Program {
        let int = |w: u32, n: u64| TypeInfo {
            kind: TypeKind::Int(w),
            store_size: n,
            alloc_size: n,
            align: n,
        };
        let types = vec![
            TypeInfo {
                kind: TypeKind::Void,
                store_size: 0,
                alloc_size: 0,
                align: 1,
            },
            int(1, 1),
            int(8, 1),
            int(16, 2),
            int(32, 4),
            int(64, 8),
            int(128, 16),
            TypeInfo {
                kind: TypeKind::Ptr,
                store_size: 8,
                alloc_size: 8,
                align: 8,
            },
        ];
        Program::new(Module {
            source_path: "t.c".into(),
            files: vec!["t.c".into()],
            target: Target {
                triple: String::new(),
                data_layout: String::new(),
                pointer_bytes: 8,
            },
            types,
            globals: Vec::new(),
            functions: Vec::new(),
            consts: Vec::new(),
            function_names: Default::default(),
            global_names: Default::default(),
        })
    }

    pub(crate) fn state(inputs: Vec<TestInput>) -> (Program, State<Concrete>) {
        let prog = empty_program();
        let st = State::new(&prog, Concrete::new(inputs), Checks::default());
        (prog, st)
    }

    fn kind(e: End) -> BugKind {
        match e {
            End::Bug(b) => b.kind,
            other => panic!("expected a bug, got {other:?}"),
        }
    }

    fn ptr(id: ObjId, off: u64) -> u128 {
        AddressLayout::LP64.address(id, off) as u128
    }

    #[test]
    fn null_and_wild_pointers() {
        let (prog, mut st) = state(vec![]);
        assert_eq!(
            kind(st.load_scalar(&prog, &0, 4, 32).unwrap_err()),
            BugKind::NullDeref
        );
        assert_eq!(
            kind(st.load_scalar(&prog, &16, 4, 32).unwrap_err()),
            BugKind::NullDeref
        );
        assert_eq!(
            kind(st.load_scalar(&prog, &ptr(77, 0), 4, 32).unwrap_err()),
            BugKind::OutOfBounds
        );
    }

    #[test]
    fn bounds_are_exact() {
        let (prog, mut st) = state(vec![]);
        let id = st.mem.allocate_with(
            ObjKind::Global,
            "g".into(),
            vec![1, 2, 3, 4, 5, 6, 7, 8],
            false,
        );
        assert_eq!(
            st.load_scalar(&prog, &ptr(id, 4), 4, 32).unwrap(),
            0x0807_0605
        );
        assert_eq!(
            kind(st.load_scalar(&prog, &ptr(id, 5), 4, 32).unwrap_err()),
            BugKind::OutOfBounds
        );
        assert_eq!(
            kind(st.store_scalar(&prog, &ptr(id, 8), &0, 1, 8).unwrap_err()),
            BugKind::OutOfBounds
        );
        // A pointer below the object wraps into the previous object id's range: never in bounds.
        let below = ptr(id, 0).wrapping_sub(1) & u64::MAX as u128;
        assert!(st.load_scalar(&prog, &below, 1, 8).is_err());
    }

    /// Strings are read as byte-by-byte loads would read them: up to the NUL or `max`, out of bounds
    /// without a NUL, and an unwritten byte becomes an input (here a missing one: zero, the NUL).
    #[test]
    fn strings_read_as_their_bytes_load() {
        let (prog, mut st) = state(vec![]);
        let lit = st
            .mem
            .allocate_with(ObjKind::Global, "s".into(), b"hello\0xy".to_vec(), false);
        assert_eq!(st.read_c_string(&prog, &ptr(lit, 0)).unwrap(), b"hello");
        assert_eq!(st.read_c_string(&prog, &ptr(lit, 5)).unwrap(), b"");
        assert_eq!(
            kind(st.read_c_string(&prog, &ptr(lit, 6)).unwrap_err()),
            BugKind::OutOfBounds
        );
        assert_eq!(
            st.read_c_string_at_most(&prog, &ptr(lit, 1), Some(3))
                .unwrap(),
            b"ell"
        );
        let unterminated =
            st.mem
                .allocate_with(ObjKind::Global, "u".into(), b"abc".to_vec(), false);
        assert_eq!(
            kind(st.read_c_string(&prog, &ptr(unterminated, 0)).unwrap_err()),
            BugKind::OutOfBounds
        );
        // A local of `size` bytes whose first `n` were stored as the `8 * n`-bit value `v`.
        let local_with = |st: &mut State<Concrete>, size: u64, v: u128, n: u64| {
            let id = st
                .mem
                .allocate(ObjKind::Stack, "l".into(), size, 0, false)
                .unwrap();
            st.store_scalar(&prog, &ptr(id, 0), &v, n, 8 * n as u32)
                .unwrap();
            id
        };
        let local = local_with(&mut st, 4, 0x6261, 2);
        assert!(!st.mem.object(local).unwrap().contents.is_init(2, 1));
        assert_eq!(st.read_c_string(&prog, &ptr(local, 0)).unwrap(), b"ab");
        assert!(st.mem.object(local).unwrap().contents.is_init(2, 1));
        // Written up to its NUL, past a byte never written: read as one range.
        let partly = local_with(&mut st, 8, 0x00_63_62_61, 4);
        assert_eq!(st.read_c_string(&prog, &ptr(partly, 0)).unwrap(), b"abc");
        assert_eq!(st.read_c_string(&prog, &ptr(partly, 2)).unwrap(), b"c");
        assert!(!st.mem.object(partly).unwrap().contents.is_init(4, 1));
    }

    /// A dead local's object refilled for the next local is as a new one: its size, unwritten, no
    /// provenance; an object another state shares is never refilled.
    #[test]
    fn a_refilled_local_is_fresh() {
        let (prog, mut st) = state(vec![]);
        let a = st
            .mem
            .allocate(ObjKind::Stack, "a".into(), 16, 0, false)
            .unwrap();
        st.store_scalar_as(
            &prog,
            &ptr(a, 8),
            &ptr(a, 0),
            8,
            64,
            Some(Provenance::Pointer),
        )
        .unwrap();
        st.mem.kill(a);
        let b = st
            .mem
            .allocate(ObjKind::Stack, "b".into(), 4, 0, false)
            .unwrap();
        let o = st.mem.object(b).unwrap();
        assert_eq!(
            (o.size(), &*o.name, o.provenance.is_empty()),
            (4, "b", true)
        );
        assert!(!o.contents.is_init(0, 1) && o.contents.flat() == Some(&[0u8; 4][..]));
        let forked = st.mem.clone();
        st.mem.kill(b);
        let c = st
            .mem
            .allocate(ObjKind::Stack, "c".into(), 4, 7, true)
            .unwrap();
        assert_eq!(
            st.load_scalar(&prog, &ptr(c, 0), 4, 32).unwrap(),
            0x0707_0707
        );
        assert_eq!(forked.object(b).unwrap().size(), 4);
    }

    #[test]
    fn lifetimes_are_checked() {
        let (prog, mut st) = state(vec![]);
        let heap = st
            .mem
            .allocate(ObjKind::Heap, "h".into(), 4, 0, true)
            .unwrap();
        let local = st
            .mem
            .allocate(ObjKind::Stack, "l".into(), 4, 0, true)
            .unwrap();
        st.mem.kill(heap);
        st.mem.kill(local);
        assert_eq!(
            kind(st.load_scalar(&prog, &ptr(heap, 0), 4, 32).unwrap_err()),
            BugKind::UseAfterFree
        );
        assert_eq!(
            kind(
                st.store_scalar(&prog, &ptr(local, 0), &1, 4, 32)
                    .unwrap_err()
            ),
            BugKind::UseAfterFree
        );
    }

    #[test]
    fn read_only_objects_reject_writes() {
        let (prog, mut st) = state(vec![]);
        let id = st.mem.allocate_with(
            ObjKind::StringLiteral,
            ".str".into(),
            b"hi\0".to_vec(),
            true,
        );
        assert_eq!(
            st.load_scalar(&prog, &ptr(id, 0), 1, 8).unwrap(),
            b'h' as u128
        );
        assert_eq!(
            kind(st.store_scalar(&prog, &ptr(id, 0), &0, 1, 8).unwrap_err()),
            BugKind::OutOfBounds
        );
    }

    #[test]
    fn uninitialised_loads_are_inputs_once() {
        let input = TestInput {
            name: "uninit:x".into(),
            bytes: vec![0xaa, 0xbb],
        };
        let (prog, mut st) = state(vec![input]);
        let id = st
            .mem
            .allocate(ObjKind::Stack, "x".into(), 4, 0, false)
            .unwrap();
        st.store_scalar(&prog, &ptr(id, 1), &0x11, 2, 16).unwrap();
        // Bytes 0 and 3 were never written: they are one input of two bytes.
        assert_eq!(
            st.load_scalar(&prog, &ptr(id, 0), 4, 32).unwrap(),
            0xbb00_11aa
        );
        assert_eq!(st.dom.consumed.len(), 1);
        assert_eq!(st.dom.consumed[0].name, "uninit:x");
        assert_eq!(
            st.load_scalar(&prog, &ptr(id, 0), 4, 32).unwrap(),
            0xbb00_11aa
        );
        assert_eq!(
            st.dom.consumed.len(),
            1,
            "a byte becomes an input only once"
        );
    }

    /// Copies between and within objects against a byte model (`None`: never written): written bytes
    /// are copied with their initialisation, a read-only or too small destination and a source range
    /// out of bounds fail and change nothing, and copied unwritten bytes end up one value on both sides.
    #[test]
    fn copies_agree_with_a_byte_model() {
        const SIZE: usize = 40;
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        let (prog, mut st) = state(vec![]);
        let image: Vec<u8> = (0..SIZE as u8).map(|i| i.wrapping_mul(37)).collect();
        let constant = st
            .mem
            .allocate_with(ObjKind::Global, "k".into(), image.clone(), true);
        let locals: Vec<ObjId> = (0..2)
            .map(|i| {
                st.mem
                    .allocate(
                        ObjKind::Stack,
                        format!("l{i}").into(),
                        SIZE as u64,
                        0,
                        false,
                    )
                    .unwrap()
            })
            .collect();
        let ids = [constant, locals[0], locals[1]];
        let mut model: Vec<Vec<Option<u8>>> = vec![
            image.iter().map(|&b| Some(b)).collect(),
            vec![None; SIZE],
            vec![None; SIZE],
        ];
        for round in 0..400 {
            // Some written bytes in a local first, so that sources mix written and unwritten ranges.
            let (o, at) = (1 + next(2) as usize, next(SIZE as u64) as usize);
            let b = next(256) as u8;
            st.store_scalar(&prog, &ptr(ids[o], at as u64), &u128::from(b), 1, 8)
                .unwrap();
            model[o][at] = Some(b);
            let (s, d) = (next(3) as usize, next(3) as usize);
            let (so, doff) = (next(SIZE as u64 + 4), next(SIZE as u64 + 4));
            let n = 1 + next(SIZE as u64 / 2);
            let src_range = so as usize..(so + n) as usize;
            if s == d
                && model[s]
                    .get(src_range)
                    .is_none_or(|r| r.iter().any(Option::is_none))
            {
                // Unwritten bytes moved within one object: their unknown value is not modelled here.
                continue;
            }
            let r = st.copy_memory(&prog, &ptr(ids[d], doff), &ptr(ids[s], so), n);
            let (so, doff, n) = (so as usize, doff as usize, n as usize);
            let fits = so + n <= SIZE && doff + n <= SIZE && d != 0;
            assert_eq!(
                r.is_ok(),
                fits,
                "round {round}: copy {s}+{so} -> {d}+{doff}, {n} bytes"
            );
            if fits {
                let part = model[s][so..so + n].to_vec();
                model[d][doff..doff + n].clone_from_slice(&part);
                for k in 0..n {
                    // An unwritten byte copied is one unknown value on both sides.
                    if model[d][doff + k].is_none() {
                        let o = st.mem.object(ids[d]).unwrap();
                        let v = o.contents.flat().unwrap()[doff + k];
                        model[d][doff + k] = Some(v);
                        model[s][so + k] = Some(v);
                    }
                }
            }
            for (i, &id) in ids.iter().enumerate() {
                let o = st.mem.object(id).unwrap();
                let bytes = o.contents.flat().unwrap();
                for (k, m) in model[i].iter().enumerate() {
                    assert_eq!(
                        o.contents.is_init(k, 1),
                        m.is_some(),
                        "round {round}: object {i} byte {k}"
                    );
                    if let Some(v) = m {
                        assert_eq!(bytes[k], *v, "round {round}: object {i} byte {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn copies_carry_the_same_unknown() {
        let input = TestInput {
            name: "uninit:m".into(),
            bytes: vec![0x12, 0x34, 0x56, 0x78],
        };
        let (prog, mut st) = state(vec![input]);
        let src = st
            .mem
            .allocate(ObjKind::Heap, "m".into(), 4, 0, false)
            .unwrap();
        let dst = st
            .mem
            .allocate(ObjKind::Stack, "d".into(), 4, 0, false)
            .unwrap();
        st.copy_memory(&prog, &ptr(dst, 0), &ptr(src, 0), 4)
            .unwrap();
        assert_eq!(st.dom.consumed.len(), 1, "the copied bytes are one input");
        assert_eq!(
            st.load_scalar(&prog, &ptr(dst, 0), 4, 32).unwrap(),
            0x7856_3412
        );
        assert_eq!(
            st.load_scalar(&prog, &ptr(src, 0), 4, 32).unwrap(),
            0x7856_3412,
            "the original holds the same value"
        );
        assert_eq!(
            st.dom.consumed.len(),
            1,
            "and loading them asks nothing more"
        );
        st.fill_memory(&prog, &ptr(src, 0), &7, 4).unwrap();
        assert_eq!(
            st.load_scalar(&prog, &ptr(src, 0), 4, 32).unwrap(),
            0x0707_0707
        );
        assert!(
            st.copy_memory(&prog, &ptr(dst, 2), &ptr(src, 0), 4)
                .is_err(),
            "copy past the end"
        );
    }
}
