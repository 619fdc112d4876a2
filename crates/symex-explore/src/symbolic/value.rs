//! Values and bytes of the symbolic domain: constants where they are known, terms where they are not.

use symex_engine::domain::Width;
use symex_expr::Term;

/// A value of the symbolic domain: a known constant (computed with the concrete domain's functions, so
/// concrete parts of a run cost what they cost concretely and behave exactly as in the interpreter), or a
/// term over the inputs.
///
/// A constant of up to 64 bits is held inline and a wider one as a constant term: a value is then 16
/// bytes, not the 32 a `u128` (aligned to 16) makes it, and register files, which hold one value per
/// slot in chunks copied at the first write after a fork, are half as large. Build values with
/// [`SymVal::constant`] and [`SymVal::from_term`] (one form per value), read them with
/// [`SymVal::as_const`] or [`SymVal::split`], which see a wide constant as a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymVal {
    Const(u64),
    Sym(Term),
}

impl SymVal {
    /// The constant `c` of width `w`.
    #[inline]
    pub fn constant(c: u128, w: Width) -> SymVal {
        match u64::try_from(c) {
            Ok(c) => SymVal::Const(c),
            Err(_) => SymVal::Sym(Term::bv(c, w)),
        }
    }

    /// The constant, if the value is one.
    #[inline]
    pub fn as_const(&self) -> Option<u128> {
        match self {
            SymVal::Const(c) => Some(*c as u128),
            SymVal::Sym(t) => t.as_bv(),
        }
    }

    /// The constant (`Ok`) or the term of a value that is not constant (`Err`).
    #[inline]
    pub fn split(&self) -> Result<u128, &Term> {
        match self {
            SymVal::Const(c) => Ok(*c as u128),
            SymVal::Sym(t) => t.as_bv().ok_or(t),
        }
    }

    /// The value as a term of width `w`.
    #[inline]
    pub fn term(&self, w: Width) -> Term {
        match self {
            SymVal::Const(c) => Term::bv(*c as u128, w),
            SymVal::Sym(t) => t.clone(),
        }
    }

    /// A term, turned back into a constant when it folded to one that fits inline.
    #[inline]
    pub fn from_term(t: Term) -> SymVal {
        match t.as_bv().map(u64::try_from) {
            Some(Ok(c)) => SymVal::Const(c),
            _ => SymVal::Sym(t),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Register files hold one value per slot: a value is two words.
    #[test]
    fn a_value_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<SymVal>(), 16);
    }

    #[test]
    fn a_wide_constant_is_a_constant() {
        let wide = (1u128 << 100) | 5;
        let v = SymVal::constant(wide, 128);
        assert_eq!(v.as_const(), Some(wide));
        assert_eq!(v.split(), Ok(wide));
        assert_eq!(v.term(128).as_bv(), Some(wide));
        assert_eq!(SymVal::from_term(Term::bv(7, 128)), SymVal::Const(7));
        assert_eq!(SymVal::constant(7, 128), SymVal::Const(7));
        let x = Term::var("x", symex_expr::Sort::bv(128));
        assert_eq!(SymVal::from_term(x.clone()).split(), Err(&x));
    }
}
