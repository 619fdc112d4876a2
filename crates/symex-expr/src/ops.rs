//! The operator methods on [`Term`]: each is [`Term::new`] with the matching [`Op`], so each
//! simplifies. All panic on ill-sorted arguments (a programming error); use
//! [`Term::try_new`] to get a [`crate::SortError`] instead.

use crate::sort::Sort;
use crate::term::{Op, Term};

macro_rules! unary {
    ($($(#[$doc:meta])* $name:ident => $op:expr;)*) => {$(
        $(#[$doc])*
        pub fn $name(&self) -> Term {
            Term::new_vec($op, vec![self.clone()])
        }
    )*};
}

macro_rules! binary {
    ($($(#[$doc:meta])* $name:ident => $op:expr;)*) => {$(
        $(#[$doc])*
        pub fn $name(&self, other: &Term) -> Term {
            Term::new_vec($op, vec![self.clone(), other.clone()])
        }
    )*};
}

impl Term {
    unary! {
        /// Boolean negation.
        not => Op::Not;
        /// Bitwise complement.
        bvnot => Op::BvNot;
        /// Two's-complement negation.
        bvneg => Op::BvNeg;
        /// Integer negation.
        ineg => Op::IntNeg;
    }

    binary! {
        /// Conjunction.
        and => Op::And;
        /// Disjunction.
        or => Op::Or;
        /// Exclusive or.
        xor => Op::Xor;
        /// Implication.
        implies => Op::Implies;
        /// Equality (any sort; on Booleans it is "if and only if").
        eq => Op::Eq;
        /// `bvadd`.
        bvadd => Op::BvAdd;
        /// `bvsub`.
        bvsub => Op::BvSub;
        /// `bvmul`.
        bvmul => Op::BvMul;
        /// `bvudiv` (by zero: all ones).
        bvudiv => Op::BvUdiv;
        /// `bvsdiv`.
        bvsdiv => Op::BvSdiv;
        /// `bvurem` (by zero: the dividend).
        bvurem => Op::BvUrem;
        /// `bvsrem`.
        bvsrem => Op::BvSrem;
        /// `bvsmod`.
        bvsmod => Op::BvSmod;
        /// `bvand`.
        bvand => Op::BvAnd;
        /// `bvor`.
        bvor => Op::BvOr;
        /// `bvxor`.
        bvxor => Op::BvXor;
        /// `bvshl`.
        bvshl => Op::BvShl;
        /// `bvlshr`.
        bvlshr => Op::BvLshr;
        /// `bvashr`.
        bvashr => Op::BvAshr;
        /// `bvult`.
        bvult => Op::BvUlt;
        /// `bvule`.
        bvule => Op::BvUle;
        /// `bvslt`.
        bvslt => Op::BvSlt;
        /// `bvsle`.
        bvsle => Op::BvSle;
        /// `concat`: `self` becomes the high bits.
        concat => Op::Concat;
        /// Integer `+`.
        iadd => Op::IntAdd;
        /// Integer binary `-`.
        isub => Op::IntSub;
        /// Integer `*`.
        imul => Op::IntMul;
        /// Integer `div` (Euclidean; by zero unspecified, as in SMT-LIB).
        idiv => Op::IntDiv;
        /// Integer `mod` (non-negative).
        imod => Op::IntMod;
        /// Integer `<=`.
        ile => Op::IntLe;
        /// Integer `<`.
        ilt => Op::IntLt;
        /// `select` from an array.
        select => Op::Select;
    }

    /// Disequality.
    pub fn ne(&self, other: &Term) -> Term {
        self.eq(other).not()
    }

    /// `bvugt` as `bvult` with the arguments swapped.
    pub fn bvugt(&self, other: &Term) -> Term {
        other.bvult(self)
    }

    /// `bvuge` as `bvule` with the arguments swapped.
    pub fn bvuge(&self, other: &Term) -> Term {
        other.bvule(self)
    }

    /// `bvsgt` as `bvslt` with the arguments swapped.
    pub fn bvsgt(&self, other: &Term) -> Term {
        other.bvslt(self)
    }

    /// `bvsge` as `bvsle` with the arguments swapped.
    pub fn bvsge(&self, other: &Term) -> Term {
        other.bvsle(self)
    }

    /// Integer `>=`.
    pub fn ige(&self, other: &Term) -> Term {
        other.ile(self)
    }

    /// Integer `>`.
    pub fn igt(&self, other: &Term) -> Term {
        other.ilt(self)
    }

    /// `ite(self, then, otherwise)`.
    pub fn ite(&self, then: &Term, otherwise: &Term) -> Term {
        Term::new_vec(Op::Ite, vec![self.clone(), then.clone(), otherwise.clone()])
    }

    /// Bits `hi` down to `lo` (inclusive).
    pub fn extract(&self, hi: u32, lo: u32) -> Term {
        Term::new_vec(Op::Extract { hi, lo }, vec![self.clone()])
    }

    /// Adds `n` zero bits on top.
    pub fn zext(&self, n: u32) -> Term {
        Term::new_vec(Op::ZeroExt(n), vec![self.clone()])
    }

    /// Adds `n` copies of the sign bit on top.
    pub fn sext(&self, n: u32) -> Term {
        Term::new_vec(Op::SignExt(n), vec![self.clone()])
    }

    /// Zero-extends or truncates to `width` bits.
    pub fn zext_to(&self, width: u32) -> Term {
        self.resize(width, false)
    }

    /// Sign-extends or truncates to `width` bits.
    pub fn sext_to(&self, width: u32) -> Term {
        self.resize(width, true)
    }

    fn resize(&self, width: u32, signed: bool) -> Term {
        let w = self.width();
        match width.cmp(&w) {
            std::cmp::Ordering::Less => self.extract(width - 1, 0),
            std::cmp::Ordering::Equal => self.clone(),
            std::cmp::Ordering::Greater if signed => self.sext(width - w),
            std::cmp::Ordering::Greater => self.zext(width - w),
        }
    }

    /// `store` into an array.
    pub fn store(&self, index: &Term, element: &Term) -> Term {
        Term::new_vec(
            Op::Store,
            vec![self.clone(), index.clone(), element.clone()],
        )
    }

    /// The conjunction of all `terms` (`true` when empty).
    pub fn and_all<'a>(terms: impl IntoIterator<Item = &'a Term>) -> Term {
        terms.into_iter().fold(Term::tt(), |acc, t| acc.and(t))
    }

    /// The disjunction of all `terms` (`false` when empty).
    pub fn or_all<'a>(terms: impl IntoIterator<Item = &'a Term>) -> Term {
        terms.into_iter().fold(Term::ff(), |acc, t| acc.or(t))
    }

    /// A Boolean as a 1-bit vector (`#b1` for true).
    pub fn bool_to_bv1(&self) -> Term {
        self.ite(&Term::bv(1, 1), &Term::bv(0, 1))
    }

    /// Whether the term's sort is `sort`.
    pub fn has_sort(&self, sort: Sort) -> bool {
        self.sort() == sort
    }
}
