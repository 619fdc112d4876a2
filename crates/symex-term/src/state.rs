//! Abstract states ([B] Def. 1) for the register fragment: a call stack of positions with
//! `LV` (slot → symbolic variable or literal), and the knowledge base `KB`, a conjunction of
//! linear integer constraints over the symbolic variables. After `mem2reg` every scalar local
//! is a register, so the paper's `AL`/`PT` components are empty; a program that still reads
//! or writes memory is outside the supported fragment (MAYBE, naming the instruction).

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
