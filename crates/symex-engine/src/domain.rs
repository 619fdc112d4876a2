//! The value domain: the one interface through which the instruction semantics compute and decide.
//!
//! The semantics in [`crate::exec`] are written once, generic over a [`Domain`]. The concrete domain
//! ([`crate::concrete::Concrete`]) computes on `u128` bit patterns and answers every decision from the values;
//! a symbolic domain computes on terms and answers a decision by consulting the path condition, forking when
//! both answers are feasible. Every point where the path could split goes through [`Domain::decide`],
//! [`Domain::choose`], [`Domain::assume`] or [`Domain::input`], tagged with a [`Decision`] that says why.

use std::fmt::Debug;

/// Bit width of an integer value, 1..=128. Pointers are 64-bit integers (zero-extended 32-bit addresses on
/// 32-bit targets).
pub type Width = u32;

/// Two-operand integer operations (LLVM's binary operators). Division and remainder are only
/// computed after the semantics decided that the divisor is non-zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    UMin,
    UMax,
    SMin,
    SMax,
}

/// Integer comparisons; the result has width 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Ult,
    Ule,
    Ugt,
    Uge,
    Slt,
    Sle,
    Sgt,
    Sge,
}

/// One-operand operations (the bit-manipulation intrinsics).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    Neg,
    Abs,
    Ctpop,
    Ctlz,
    Cttz,
    Bswap,
    BitReverse,
}

/// Width changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
}

/// Overflow predicates of `*.with.overflow` and of `nsw` arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OverflowOp {
    SAdd,
    UAdd,
    SSub,
    USub,
    SMul,
    UMul,
}

/// Why the semantics ask a question: lets a symbolic domain treat each decision point its own way
/// (fork on a branch, fork per object on a pointer, concretise an allocation size to a minimum, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// `br i1` / `select` on a condition.
    Branch,
    /// one case of a `switch`.
    SwitchCase,
    /// which memory object a pointer refers to (the bits above the offset, see `AddressLayout`).
    PointerObject,
    /// whether an access lies within its object.
    InBounds,
    /// the offset within its object of a pointer already known to be in bounds.
    PointerOffset,
    /// whether a divisor is zero.
    DivisorZero,
    /// whether a signed operation overflows (only asked with overflow checking on).
    Overflow,
    /// whether the operand of `free`/`realloc` is the start of a heap block.
    FreeOffset,
    /// size of an allocation (`malloc`, `alloca` with a dynamic count, ...).
    AllocSize,
    /// a length or offset a library model needs as a number (e.g. `memcpy`'s size).
    Length,
    /// a value printed or otherwise sent outside the program.
    Output,
    /// which function an indirect call goes to.
    CallTarget,
    /// a byte of a library model's loop (e.g. end of string in `strlen`).
    LibraryBranch,
}

/// Where an input comes from: the program asked for it (SV-COMP/KLEE intrinsics) or it read bytes
/// that were never written (uninitialised memory is an unconstrained input, see `spec/cli.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputRequest<'a> {
    /// `__VERIFIER_nondet_*`, `klee_int`, `klee_range`, `klee_make_symbolic`: the name is the intrinsic's
    /// (or the name argument given to it).
    Named(&'a str),
    /// Uninitialised bytes of the named memory object.
    Uninitialised(&'a str),
}

impl InputRequest<'_> {
    /// The name recorded in a test file.
    pub fn name(&self) -> String {
        match self {
            InputRequest::Named(n) => (*n).to_string(),
            InputRequest::Uninitialised(obj) => format!("uninit:{obj}"),
        }
    }
}

/// The value domain of the semantics. One instance lives in each execution state (it carries the
/// path condition of a symbolic state, or the input cursor of a concrete one), so cloning a state
/// clones its domain.
pub trait Domain: Clone {
    /// An integer value (its width is always known to the semantics and passed explicitly).
    type Val: Clone + Debug;
    /// One byte of memory. Equal bytes hold the same value on every path (a constant, or the very same
    /// term): what lets a run of them be decided once (see `hooks/string.rs`).
    type Byte: Clone + Debug + PartialEq;
    /// A frame's register file: shared copy-on-write in chunks where states fork, one plain vector
    /// where they never do (see `regs.rs`).
    type Regs: crate::regs::RegisterFile<Self::Val>;

    /// The integer `bits` (already masked to `w` bits).
    fn constant(&mut self, w: Width, bits: u128) -> Self::Val;
    /// The bit pattern of `v` when it is a known constant.
    fn as_const(&self, v: &Self::Val) -> Option<u128>;

    fn binop(&mut self, op: BinOp, w: Width, a: &Self::Val, b: &Self::Val) -> Self::Val;
    fn cmp(&mut self, op: CmpOp, w: Width, a: &Self::Val, b: &Self::Val) -> Self::Val;
    fn unop(&mut self, op: UnOp, w: Width, a: &Self::Val) -> Self::Val;
    fn cast(&mut self, op: CastOp, from: Width, to: Width, a: &Self::Val) -> Self::Val;
    /// `if c then a else b`, both of width `w`, `c` of width 1.
    fn ite(&mut self, c: &Self::Val, w: Width, a: &Self::Val, b: &Self::Val) -> Self::Val;
    /// 1 when `op` on `a`, `b` overflows `w` bits.
    fn overflows(&mut self, op: OverflowOp, w: Width, a: &Self::Val, b: &Self::Val) -> Self::Val;
    /// Funnel shifts (`llvm.fshl` / `llvm.fshr`).
    fn funnel_shift(
        &mut self,
        left: bool,
        w: Width,
        a: &Self::Val,
        b: &Self::Val,
        s: &Self::Val,
    ) -> Self::Val;

    /// The constant byte `b`.
    fn const_byte(&mut self, b: u8) -> Self::Byte;
    /// The value of a byte when it is a known constant.
    fn byte_as_const(&self, b: &Self::Byte) -> Option<u8>;
    /// Little-endian bytes of `v` (width `w`, a multiple of 8 after rounding up) into `out`.
    fn val_to_bytes(&mut self, v: &Self::Val, w: Width, out: &mut [Self::Byte]);
    /// The value of width `w` whose little-endian bytes are `bytes` (bits above `w` are dropped).
    fn bytes_to_val(&mut self, bytes: &[Self::Byte], w: Width) -> Self::Val;

    /// Whether [`Self::decide`] only computes its answer: it forks nothing and records nothing, so the
    /// state's position does not matter while a branch is decided and the run loop need not set the
    /// frame's cursor to the terminator first (it does for every domain that may fork).
    const DECIDES_PURELY: bool = false;

    /// Answers a yes/no question about a width-1 value `cond`. A symbolic domain may fork here: the
    /// answer it returns is the one the current state follows, and `cond` (or its negation) joins the
    /// path condition.
    fn decide(&mut self, why: Decision, cond: &Self::Val) -> bool;
    /// Picks one value of `v` (width `w`) for the current state to continue with; a symbolic domain
    /// adds `v == result` to the path condition (and may fork over other feasible values).
    fn choose(&mut self, why: Decision, v: &Self::Val, w: Width) -> u128;
    /// The value `v` (width `w`) has on every run of the path, when the path fixes it; `None` when it may
    /// take several, and the caller does without it rather than fork per value (the object of a pointer
    /// made from an input may be any of millions). Domains without forking costs choose a value.
    fn determined(&mut self, why: Decision, v: &Self::Val, w: Width) -> Option<u128> {
        Some(self.choose(why, v, w))
    }
    /// Restricts the path to `cond` (`__VERIFIER_assume`, `klee_assume`). Returns false when the path
    /// becomes infeasible (concretely: the assumption does not hold on this run).
    fn assume(&mut self, cond: &Self::Val) -> bool;
    /// `n` fresh input bytes: read from the test file concretely, fresh symbols symbolically.
    fn input(&mut self, req: InputRequest<'_>, n: usize) -> Vec<Self::Byte>;

    /// `klee_set_forking`: with forking off, a symbolic domain follows one feasible side of each
    /// branch instead of forking (a concrete run never forks).
    fn set_forking(&mut self, _on: bool) {}

    /// The integer the pointer `ptr` to object `obj` (`None`: not known) converts to (`ptrtoint`). The
    /// model's addresses are not the machine's (objects are placed by id, never reused): the value is the
    /// model's address, but a domain that can tell when a decision depends on it (a symbolic one) marks
    /// it, so that no verdict rests on address bits the model fixed.
    fn observe_address(&mut self, ptr: &Self::Val, _obj: Option<u32>) -> Self::Val {
        ptr.clone()
    }

    /// The pointer the integer `v` converts back to (`inttoptr`), when `v` is an observed address plus an
    /// amount that does not depend on where objects are: for every placement of the objects, `v` is the
    /// real address of object `o` plus the same `k` (modulo 2^`pointer_bits`), where `o` is the object
    /// the model's value of `v` was derived from (`AddressLayout::owner` of its address bits). Then the model's
    /// pointer (its mark taken off) is the real one in the model's terms. `None`: `v` carries no mark, or
    /// its relation to the real address is not that simple (the conversion keeps the mark).
    fn unobserve_address(
        &mut self,
        _v: &Self::Val,
        _pointer_bits: u32,
        _offset_bits: u32,
    ) -> Option<Self::Val> {
        None
    }

    /// The `w`-bit value stored in the `n` bytes at the non-constant offset `off` (32 bits) of an object's
    /// `bytes`, the access being known to lie within them — for a domain that can express it without fixing
    /// the offset (a symbolic read). `None`: the semantics fix the offset with [`Domain::choose`].
    fn select(
        &mut self,
        _bytes: &[Self::Byte],
        _off: &Self::Val,
        _n: usize,
        _w: Width,
    ) -> Option<Self::Val> {
        None
    }

    /// Writes the `w`-bit `v` into the `n` bytes at the non-constant offset `off` (32 bits) of an object's
    /// `bytes`, the access being known to lie within them, without fixing the offset (a symbolic write).
    /// `false`: the domain cannot express it, `bytes` are untouched, and the semantics fix the offset.
    fn update(
        &mut self,
        _bytes: &mut [Self::Byte],
        _off: &Self::Val,
        _v: &Self::Val,
        _n: usize,
        _w: Width,
    ) -> bool {
        false
    }
}
