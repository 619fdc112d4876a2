//! Values and bytes of the symbolic domain: constants where they are known, terms where they are not.

use std::ptr::NonNull;
use symex_engine::domain::Width;
use symex_expr::Term;

/// A value of the symbolic domain: a known constant (computed with the concrete domain's functions, so
/// concrete parts of a run cost what they cost concretely and behave exactly as in the interpreter), or a
/// term over the inputs.
///
/// One word: register files hold one value per slot, in chunks copied at the first write after a fork,
/// and tens of thousands of states wait at once in an exploration (a two-word enum made those copies
/// 144 bytes, one word makes them 80). The word is either a term (its pointer, whose low bit is 0: nodes
/// are aligned to 8) or a constant `c` held as `c << 1 | 1`, for the constants whose two top bits are
/// equal (those a 64-bit signed or unsigned integer below 2^62 in magnitude takes, the constants
/// programs compute with). Any other constant is a constant term. Build values with
/// [`SymVal::constant`], [`SymVal::from_term`] and [`SymVal::sym`] (one form per constant), read them with
/// [`SymVal::as_const`] or [`SymVal::split`], which see a constant term as a constant.
#[repr(transparent)]
pub struct SymVal(NonNull<u8>);

// A term is one pointer (`Arc<Node>`), which the word holds with its provenance.
const _: () = assert!(std::mem::size_of::<Term>() == std::mem::size_of::<NonNull<u8>>());

// SAFETY: the word is a `u64` or a `Term`, and both are `Send` and `Sync`.
unsafe impl Send for SymVal {}
unsafe impl Sync for SymVal {}

impl SymVal {
    /// The value of the constant `c` when it is held inline.
    #[inline(always)]
    fn inline(c: u64) -> Option<SymVal> {
        let word = (c << 1) | 1;
        // Inline when shifting back (sign-extending) gives `c`: its two top bits are equal.
        (((word as i64) >> 1) as u64 == c)
            .then(|| SymVal(NonNull::new(std::ptr::without_provenance_mut(word as usize)).unwrap()))
    }

    /// The inline constant, when the word holds one.
    #[inline(always)]
    fn inline_value(&self) -> Option<u64> {
        let word = self.0.as_ptr().addr() as u64;
        (word & 1 == 1).then_some(((word as i64) >> 1) as u64)
    }

    /// The term the word holds, when it holds one.
    #[inline(always)]
    fn as_term(&self) -> Option<&Term> {
        // SAFETY: an even word is a `Term`'s pointer, moved in by `sym` and owned by this value; a
        // `Term` is that pointer alone (checked above), so the word can be read as one.
        (self.0.as_ptr().addr() & 1 == 0)
            .then(|| unsafe { &*(self as *const SymVal as *const Term) })
    }

    /// The term `t` as a value, as it is (a constant term stays a term: see [`Self::from_term`]).
    #[inline]
    pub fn sym(t: Term) -> SymVal {
        // SAFETY: a `Term` is one non-null pointer (checked above); moving it into the word keeps its
        // reference, released by `drop`.
        let p = unsafe { std::mem::transmute::<Term, NonNull<u8>>(t) };
        debug_assert_eq!(p.as_ptr().addr() & 1, 0, "terms are aligned");
        SymVal(p)
    }

    /// The constant `c` of width `w`.
    #[inline]
    pub fn constant(c: u128, w: Width) -> SymVal {
        match u64::try_from(c).ok().and_then(SymVal::inline) {
            Some(v) => v,
            None => SymVal::sym(Term::bv(c, w)),
        }
    }

    /// The constant, if the value is one.
    #[inline]
    pub fn as_const(&self) -> Option<u128> {
        match self.inline_value() {
            Some(c) => Some(c as u128),
            None => self.as_term()?.as_bv(),
        }
    }

    /// The constant (`Ok`) or the term of a value that is not constant (`Err`).
    #[inline]
    pub fn split(&self) -> Result<u128, &Term> {
        match self.inline_value() {
            Some(c) => Ok(c as u128),
            None => {
                let t = self.as_term().expect("a word is a constant or a term");
                t.as_bv().ok_or(t)
            }
        }
    }

    /// The value as a term of width `w`.
    #[inline]
    pub fn term(&self, w: Width) -> Term {
        match self.inline_value() {
            Some(c) => Term::bv(c as u128, w),
            None => self
                .as_term()
                .expect("a word is a constant or a term")
                .clone(),
        }
    }

    /// A term, turned back into a constant when it folded to one that is held inline.
    #[inline]
    pub fn from_term(t: Term) -> SymVal {
        match t
            .as_bv()
            .and_then(|c| u64::try_from(c).ok())
            .and_then(SymVal::inline)
        {
            Some(v) => v,
            None => SymVal::sym(t),
        }
    }
}

impl Clone for SymVal {
    #[inline]
    fn clone(&self) -> SymVal {
        match self.as_term() {
            Some(t) => SymVal::sym(t.clone()),
            None => SymVal(self.0),
        }
    }
}

impl Drop for SymVal {
    #[inline]
    fn drop(&mut self) {
        if self.0.as_ptr().addr() & 1 == 0 {
            // SAFETY: an even word is a `Term` this value owns (see `sym`); it is read out once, here.
            drop(unsafe { std::mem::transmute::<NonNull<u8>, Term>(self.0) });
        }
    }
}

impl PartialEq for SymVal {
    /// Equal constants, or the same term (terms are hash-consed: equal terms are one node).
    #[inline]
    fn eq(&self, other: &SymVal) -> bool {
        self.0 == other.0
    }
}

impl Eq for SymVal {}

impl std::fmt::Debug for SymVal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.inline_value(), self.as_term()) {
            (Some(c), _) => f.debug_tuple("Const").field(&c).finish(),
            (None, Some(t)) => f.debug_tuple("Sym").field(t).finish(),
            (None, None) => unreachable!("a word is a constant or a term"),
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

    /// Register files hold one value per slot: a value is one word.
    #[test]
    fn a_value_is_eight_bytes() {
        assert_eq!(std::mem::size_of::<SymVal>(), 8);
        assert_eq!(std::mem::size_of::<Option<SymVal>>(), 8);
    }

    /// Every constant reads back as itself, inline or as a term, and two values are equal exactly when
    /// they are the same constant or the same term.
    #[test]
    fn constants_read_back_and_compare_by_value() {
        let samples = [
            0u128,
            1,
            0xff,
            (1 << 62) - 1,
            1 << 62,
            (1 << 63) - 1,
            1 << 63,
            u64::MAX as u128 - 1,
            u64::MAX as u128,
            1 << 64,
        ];
        for &c in &samples {
            let v = SymVal::constant(c, 128);
            assert_eq!(v.as_const(), Some(c), "{c:#x}");
            assert_eq!(v.split(), Ok(c));
            assert_eq!(v.term(128).as_bv(), Some(c));
            let w = v.clone();
            drop(v);
            assert_eq!(w.as_const(), Some(c));
            for &d in &samples {
                assert_eq!(SymVal::constant(c, 128) == SymVal::constant(d, 128), c == d);
            }
            assert_eq!(
                SymVal::from_term(Term::bv(c, 128)),
                SymVal::constant(c, 128)
            );
        }
        let x = Term::var("x", symex_expr::Sort::bv(64));
        let v = SymVal::sym(x.clone());
        assert_eq!(v.clone(), v);
        assert_ne!(v, SymVal::constant(0, 64));
        assert_eq!(v.as_const(), None);
        assert_eq!(format!("{:?}", SymVal::constant(7, 8)), "Const(7)");
        assert_eq!(v.split(), Err(&x));
    }

    #[test]
    fn a_wide_constant_is_a_constant() {
        let wide = (1u128 << 100) | 5;
        let v = SymVal::constant(wide, 128);
        assert_eq!(v.as_const(), Some(wide));
        assert_eq!(v.split(), Ok(wide));
        assert_eq!(v.term(128).as_bv(), Some(wide));
        assert_eq!(SymVal::from_term(Term::bv(7, 128)).as_const(), Some(7));
        assert_eq!(SymVal::constant(7, 128), SymVal::constant(7, 8));
        let x = Term::var("x", symex_expr::Sort::bv(128));
        assert_eq!(SymVal::from_term(x.clone()).split(), Err(&x));
    }
}
