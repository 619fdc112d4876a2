//! Abstract states ([B] Def. 1): a call stack of positions with `LV` (slot → symbolic
//! variable or literal; pointer slots → [`Ptr`]), the knowledge base `KB`, a conjunction of
//! linear integer constraints over the symbolic variables, and the memory [`Mem`]: the
//! paper's `AL` (allocations) and `PT` (points-to entries, here [`Cell`]s).
//!
//! Addresses are kept as *allocation + byte offset* (provenance), not as one integer: two
//! allocations are disjoint by construction (the paper's ⟨a⟩_FO needs a disjunction for
//! that), an access is in bounds when `0 ≤ off ∧ off + size ≤ size(alloc)` is entailed, and
//! the layout of allocations is never observable — comparing or subtracting pointers into
//! different allocations is outside the fragment, and a pointer turned into an integer is any
//! value (only its difference to an address in the same allocation is known: `rules::ptrdiff`).

use std::collections::BTreeMap;
use symex_ir::{BlockId, FuncId, Slot};
use symex_its::{Atom, Poly, Rel};

/// Which reading of a bit-vector a symbolic variable holds ([B] §2: `U_P` / `S_P`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reading {
    /// `[0, umax_n]`.
    Unsigned,
    /// `[smin_n, smax_n]`.
    Signed,
}

/// `LV(x)`: a symbolic variable or a literal (in the slot's reading).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Val {
    Const(i128),
    Var(usize),
}

impl Val {
    pub fn poly(self) -> Poly {
        match self {
            Val::Const(c) => Poly::constant(c),
            Val::Var(v) => Poly::var(v),
        }
    }
}

/// One activation: the position `p = (b, k)` and the registers of the function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub func: FuncId,
    pub block: BlockId,
    /// Index of the next instruction; `insts.len()` is the terminator.
    pub idx: usize,
    pub regs: BTreeMap<Slot, Val>,
    /// Where the caller wants the return value.
    pub ret_to: Option<Slot>,
    /// `LV` of the pointer slots.
    pub ptrs: BTreeMap<Slot, Ptr>,
}

/// An abstract state.
#[derive(Clone, Debug)]
pub struct State {
    pub frames: Vec<Frame>,
    pub kb: Vec<Atom>,
    /// Set when the last step entered a loop head (a block that is the target of a DFS back edge).
    pub arrived: bool,
    /// The run stopped here (`__VERIFIER_assume` of a false condition).
    pub halted: bool,
    /// Loop-head arrivals this path went through without generalization (concrete states).
    pub unrolled: u32,
    /// The symbolic variables returned by `__VERIFIER_nondet_*`, in call order.
    pub inputs: Vec<(String, u32, Val)>,
    /// `AL` and `PT`.
    pub mem: Mem,
    /// The recursive calls this chain made, for the ITS of a computation tree.
    pub calls: Calls,
}

/// Recursive calls on a chain ([`crate::rules::recursion`]): a run of a recursive program is a
/// tree, and a chain that went on after a call returned also started the callee's computation.
/// Numbers are per SEG round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Calls {
    /// On the callee's state at its call head: the number of the call it makes.
    pub made: Option<u32>,
    /// The calls this chain made that returned (the caller went on with their summaries), in
    /// order.
    pub returned: Vec<u32>,
}

impl State {
    pub fn top(&self) -> &Frame {
        self.frames.last().expect("a state has a frame")
    }

    pub fn top_mut(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("a state has a frame")
    }

    /// The positions of the stack: the key of a loop head in the SEG.
    pub fn key(&self) -> Vec<(u32, u32, usize)> {
        self.frames
            .iter()
            .map(|f| (f.func.0, f.block.0, f.idx))
            .collect()
    }
}

/// What a pointer points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Null,
    /// An index into [`Mem::allocs`].
    Alloc(usize),
    /// Any address (an entry parameter, a function, a pointer read from unknown memory):
    /// every access through it is `ERR`.
    Unknown,
    /// The token of `llvm.stacksave`: the number of allocations when it was made.
    StackMark(usize),
    /// The first element of a list invariant: an index into [`Mem::lists`] (`LI`, seed 000).
    List(usize),
}

/// A pointer value: its allocation and the byte offset into it (over ℤ: an offset outside
/// `[0, size]` is never dereferenced without an `ERR`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ptr {
    pub target: Target,
    pub off: Poly,
}

impl Ptr {
    pub fn unknown() -> Ptr {
        Ptr {
            target: Target::Unknown,
            off: Poly::constant(0),
        }
    }

    pub fn null() -> Ptr {
        Ptr {
            target: Target::Null,
            off: Poly::constant(0),
        }
    }
}

/// Where an allocation was made: the identity loop heads match allocations by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Site {
    Global(u32),
    /// An `alloca` (`heap == false`) or a `malloc`/`calloc` call: the frame depth and the
    /// instruction.
    Inst {
        heap: bool,
        depth: usize,
        func: u32,
        block: u32,
        idx: usize,
    },
}

/// What the bytes of an allocation hold where no [`Cell`] says otherwise, while it is
/// `pristine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Init {
    /// Indeterminate (`alloca`, `malloc`): a load gives any value of its type.
    Undef,
    /// Zero bytes (`calloc`, `memset(p, 0, size)`).
    Zero,
    /// The initializer of a global.
    Global(u32),
}

/// An `AL` entry `⟦v, v + size − 1⟧`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Alloc {
    pub site: Site,
    /// Bytes (≥ 0).
    pub size: Poly,
    /// Not yet freed (or, for `alloca`, its frame not yet returned).
    pub live: bool,
    pub init: Init,
    /// Every byte not covered by a cell holds `init` (false once a cell that was not
    /// provably replaced is dropped).
    pub pristine: bool,
    /// Writes are undefined behaviour (string literals, `const` globals).
    pub read_only: bool,
    /// An `alloca` of a variable count (a VLA): `llvm.stackrestore` ends it.
    pub dynamic: bool,
}

/// What a cell holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Content {
    /// An integer in `reading`.
    Int(Val, Reading),
    Ptr(Ptr),
}

/// A `PT` entry: `size` bytes at `off` of allocation `alloc` hold `val`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    pub alloc: usize,
    pub off: Poly,
    pub size: u32,
    pub val: Content,
}

/// `AL` and `PT`. Allocations are never removed (pointers index them); a freed one is
/// not `live`. Cells are pairwise provably disjoint (a store drops the others).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mem {
    pub allocs: Vec<Alloc>,
    pub cells: Vec<Cell>,
    /// `LI`: list invariants ([`crate::list`]); like allocations never removed, a list
    /// folded into another or unfolded to its end is no longer `live`.
    pub lists: Vec<crate::list::ListInv>,
    /// Variables a `ptrtoint` made: the pointer each is the address of ([`crate::rules::ptrdiff`]).
    pub addrs: Vec<(usize, Ptr)>,
}

impl Mem {
    /// Whether every offset, size and value is a literal (a concrete run's memory).
    pub fn is_concrete(&self) -> bool {
        let lit = |p: &Poly| p.as_constant().is_some();
        self.lists.iter().all(|l| !l.live)
            && self.allocs.iter().all(|a| lit(&a.size))
            && self.cells.iter().all(|c| {
                lit(&c.off)
                    && match &c.val {
                        Content::Int(v, _) => matches!(v, Val::Const(_)),
                        Content::Ptr(p) => lit(&p.off),
                    }
            })
    }
}

pub fn umax(n: u32) -> i128 {
    (1i128 << n) - 1
}

pub fn smin(n: u32) -> i128 {
    -(1i128 << (n - 1))
}

pub fn smax(n: u32) -> i128 {
    (1i128 << (n - 1)) - 1
}

/// `uns_n(c)` / `sig_n(c)` of a literal (Thm 5).
pub fn convert_const(c: i128, n: u32, to: Reading) -> i128 {
    let m = 1i128 << n;
    let u = c.rem_euclid(m);
    match to {
        Reading::Unsigned => u,
        Reading::Signed if u > smax(n) => u - m,
        Reading::Signed => u,
    }
}

/// `a ≥ b`.
pub fn ge(a: &Poly, b: &Poly) -> Atom {
    Atom::ge0(a.sub(b))
}

/// `a = b`.
pub fn eq(a: &Poly, b: &Poly) -> Atom {
    Atom {
        poly: a.sub(b),
        rel: Rel::Eq,
    }
}

/// `a ≥ c`.
pub fn ge_c(a: &Poly, c: i128) -> Atom {
    ge(a, &Poly::constant(c))
}

/// `a ≤ c`.
pub fn le_c(a: &Poly, c: i128) -> Atom {
    ge(&Poly::constant(c), a)
}

/// The truth of an atom without variables.
pub fn const_truth(a: &Atom) -> Option<bool> {
    let c = a.poly.as_constant()?;
    Some(match a.rel {
        Rel::Ge => c >= 0,
        Rel::Eq => c == 0,
        Rel::Ne => c != 0,
    })
}
