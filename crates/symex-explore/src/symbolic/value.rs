//! Values and bytes of the symbolic domain: constants where they are known, terms where they are not.

use symex_engine::domain::Width;
use symex_expr::Term;

/// A value of the symbolic domain: a known constant (computed with the concrete domain's functions, so
/// concrete parts of a run cost what they cost concretely and behave exactly as in the interpreter), or a
/// term over the inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymVal {
    Const(u128),
    Sym(Term),
}

impl SymVal {
    /// The constant, if the value is one.
    #[inline]
    pub fn as_const(&self) -> Option<u128> {
        match self {
            SymVal::Const(c) => Some(*c),
            SymVal::Sym(_) => None,
        }
    }

    /// The value as a term of width `w`.
    #[inline]
    pub fn term(&self, w: Width) -> Term {
        match self {
            SymVal::Const(c) => Term::bv(*c, w),
            SymVal::Sym(t) => t.clone(),
        }
    }

    /// A term, turned back into a constant when it folded to one.
    #[inline]
    pub fn from_term(t: Term) -> SymVal {
        match t.as_bv() {
            Some(c) => SymVal::Const(c),
            None => SymVal::Sym(t),
        }
    }
}

/// A byte of symbolic memory: a constant or an 8-bit term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymByte {
    Const(u8),
    Sym(Term),
}

impl SymByte {
    pub(super) fn term(&self) -> Term {
        match self {
            SymByte::Const(c) => Term::bv(*c as u128, 8),
            SymByte::Sym(t) => t.clone(),
        }
    }
    pub(super) fn from_term(t: Term) -> SymByte {
        match t.as_bv() {
            Some(c) => SymByte::Const(c as u8),
            None => SymByte::Sym(t),
        }
    }
}
