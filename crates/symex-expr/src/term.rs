//! Terms: hash-consed nodes of the term DAG.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::intern;
use crate::sort::{Func, Sort};

/// The operator at the root of a term, with its non-term parameters.
///
/// Leaves (`BoolConst`, `BvConst`, `IntConst`, `Var`) have no arguments; every other
/// operator lists the sorts of its arguments in its documentation. The names follow
/// SMT-LIB.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// `true` / `false`.
    BoolConst(bool),
    /// A bit-vector constant; `value` fits in `width` bits.
    BvConst {
        /// The value, zero-extended to 128 bits.
        value: u128,
        /// The width.
        width: u32,
    },
    /// An integer constant.
    IntConst(i128),
    /// A free variable (an SMT constant); its sort is the term's sort.
    Var(Arc<str>),
    /// The constant array of its sort whose every element is the argument.
    ConstArray,
    /// `not` (Bool).
    Not,
    /// `and` (Bool, Bool).
    And,
    /// `or` (Bool, Bool).
    Or,
    /// `xor` (Bool, Bool).
    Xor,
    /// `=>` (Bool, Bool).
    Implies,
    /// `ite` (Bool, s, s).
    Ite,
    /// `=` (s, s).
    Eq,
    /// `bvnot`.
    BvNot,
    /// `bvneg`.
    BvNeg,
    /// `bvadd`.
    BvAdd,
    /// `bvsub`.
    BvSub,
    /// `bvmul`.
    BvMul,
    /// `bvudiv` (division by zero gives all ones).
    BvUdiv,
    /// `bvsdiv`.
    BvSdiv,
    /// `bvurem` (remainder by zero gives the dividend).
    BvUrem,
    /// `bvsrem` (sign follows the dividend).
    BvSrem,
    /// `bvsmod` (sign follows the divisor).
    BvSmod,
    /// `bvand`.
    BvAnd,
    /// `bvor`.
    BvOr,
    /// `bvxor`.
    BvXor,
    /// `bvshl`.
    BvShl,
    /// `bvlshr`.
    BvLshr,
    /// `bvashr`.
    BvAshr,
    /// `bvult`.
    BvUlt,
    /// `bvule`.
    BvUle,
    /// `bvslt`.
    BvSlt,
    /// `bvsle`.
    BvSle,
    /// `concat` (high part first).
    Concat,
    /// `(_ extract hi lo)`.
    Extract {
        /// Highest bit kept.
        hi: u32,
        /// Lowest bit kept.
        lo: u32,
    },
    /// `(_ zero_extend n)`: adds `n` zero bits.
    ZeroExt(u32),
    /// `(_ sign_extend n)`: adds `n` copies of the sign bit.
    SignExt(u32),
    /// `+` on Int.
    IntAdd,
    /// `-` (binary) on Int.
    IntSub,
    /// `*` on Int.
    IntMul,
    /// `-` (unary) on Int.
    IntNeg,
    /// `div` on Int (SMT-LIB Euclidean division).
    IntDiv,
    /// `mod` on Int (always non-negative).
    IntMod,
    /// `<=` on Int.
    IntLe,
    /// `<` on Int.
    IntLt,
    /// `select` (array, index).
    Select,
    /// `store` (array, index, element).
    Store,
    /// Application of an uninterpreted function.
    Apply(Func),
}

impl Op {
    /// Whether the operator is a constant leaf.
    pub fn is_const(&self) -> bool {
        matches!(
            self,
            Op::BoolConst(_) | Op::BvConst { .. } | Op::IntConst(_)
        )
    }

    /// Whether `op(a, b) = op(b, a)` for the binary operator.
    pub fn is_commutative(&self) -> bool {
        matches!(
            self,
            Op::And
                | Op::Or
                | Op::Xor
                | Op::Eq
                | Op::BvAdd
                | Op::BvMul
                | Op::BvAnd
                | Op::BvOr
                | Op::BvXor
                | Op::IntAdd
                | Op::IntMul
        )
    }
}

/// A term: an immutable, hash-consed node of the term DAG.
///
/// Structurally equal terms are the same node, so `==`, `Hash` and `clone` are O(1)
/// (pointer comparison, the node's unique id, an atomic increment). Terms are `Send + Sync`
/// and are freed when the last handle goes (the global table holds weak references only).
/// `Ord` follows creation order (the id): deterministic within a single-threaded run.
#[derive(Clone)]
pub struct Term(pub(crate) Arc<Node>);

pub(crate) struct Node {
    pub(crate) id: u64,
    pub(crate) hash: u64,
    pub(crate) sort: Sort,
    pub(crate) op: Op,
    pub(crate) args: Box<[Term]>,
}

impl Drop for Node {
    fn drop(&mut self) {
        intern::forget(self);
        intern::drop_args(std::mem::take(&mut self.args));
    }
}

impl Term {
    /// The unique id of this node (never reused within the process).
    pub fn id(&self) -> u64 {
        self.0.id
    }

    /// The sort.
    pub fn sort(&self) -> Sort {
        self.0.sort
    }

    /// The root operator.
    pub fn op(&self) -> &Op {
        &self.0.op
    }

    /// The arguments of the root operator.
    pub fn args(&self) -> &[Term] {
        &self.0.args
    }

    /// The `i`-th argument.
    ///
    /// # Panics
    /// If the operator has fewer arguments.
    pub fn arg(&self, i: usize) -> &Term {
        &self.0.args[i]
    }

    /// Whether the term is a constant (Boolean, bit-vector or integer literal).
    pub fn is_const(&self) -> bool {
        self.0.op.is_const()
    }

    /// The value of a Boolean constant.
    pub fn as_bool(&self) -> Option<bool> {
        match self.0.op {
            Op::BoolConst(b) => Some(b),
            _ => None,
        }
    }

    /// The value of a bit-vector constant (zero-extended).
    pub fn as_bv(&self) -> Option<u128> {
        match self.0.op {
            Op::BvConst { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The value of an integer constant.
    pub fn as_int(&self) -> Option<i128> {
        match self.0.op {
            Op::IntConst(v) => Some(v),
            _ => None,
        }
    }

    /// The name of a variable.
    pub fn as_var(&self) -> Option<&str> {
        match &self.0.op {
            Op::Var(name) => Some(name),
            _ => None,
        }
    }

    /// Whether the term is the constant `true`.
    pub fn is_true(&self) -> bool {
        self.as_bool() == Some(true)
    }

    /// Whether the term is the constant `false`.
    pub fn is_false(&self) -> bool {
        self.as_bool() == Some(false)
    }

    /// The width of a bit-vector term.
    ///
    /// # Panics
    /// If the term is not a bit-vector.
    pub fn width(&self) -> u32 {
        match self.0.sort {
            Sort::BitVec(w) => w,
            s => panic!("width of a term of sort {s}"),
        }
    }

    /// The number of distinct nodes in the DAG below (and including) this term.
    pub fn dag_size(&self) -> usize {
        let mut n = 0;
        crate::visit::postorder(std::slice::from_ref(self), |_| n += 1);
        n
    }
}

impl PartialEq for Term {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for Term {}
impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.id)
    }
}
impl PartialOrd for Term {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Term {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.id.cmp(&other.0.id)
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
