//! Decimal numerals as glibc's `strtol` reads them, for `atoi` and `scanf`'s `%d`: white space, an optional
//! sign, then digits up to the first other byte; a value beyond `long`'s range saturates to `LONG_MAX` or
//! `LONG_MIN`, and the `long` is then truncated to the caller's width (`int`). Every byte is decided through
//! the domain, so on a symbolic state the number of digits is fixed per path and their values stay symbolic.

use crate::bug::End;
use crate::domain::{BinOp, CastOp, CmpOp, Decision, Domain, OverflowOp, UnOp};
use crate::state::State;

/// Where a numeral's bytes come from (memory for `atoi`, stdin for `scanf`).
pub(super) trait ByteSource<D: Domain> {
    /// The next byte as an 8-bit value, `None` at the end of the input.
    fn next(&mut self, st: &mut State<D>) -> Result<Option<D::Val>, End>;
    /// Gives back `b`, the last byte read: the first one the numeral does not take.
    fn put_back(&mut self, st: &mut State<D>, b: &D::Val);
}

/// How reading a numeral ended.
pub(super) enum Numeral<V> {
    Value(V),
    /// The input did not hold a number there.
    Mismatch,
    /// The input ended before the number began.
    End,
}

/// Up to this many digits the magnitude stays below 2^63, so it needs no saturation.
const EXACT_DIGITS: u32 = 18;
/// The magnitude kept once it exceeds 2^63: too big for either sign.
const TOO_BIG: u128 = (1 << 63) + 1;
const LONG_MAX: u128 = (1 << 63) - 1;
const LONG_MIN_BITS: u128 = 1 << 63;

/// Whether 8-bit `b` is white space of the C locale (`' '`, `\t` to `\r`), as a width-1 value.
pub(super) fn is_space<D: Domain>(st: &mut State<D>, b: &D::Val) -> D::Val {
    let sp = st.dom.constant(8, b' ' as u128);
    let is_sp = st.dom.cmp(CmpOp::Eq, 8, b, &sp);
    let ctl = byte_in(st, b, b'\t', b'\r');
    st.dom.binop(BinOp::Or, 1, &is_sp, &ctl)
}

/// Whether 8-bit `b` lies in `lo..=hi`, as a width-1 value.
pub(super) fn byte_in<D: Domain>(st: &mut State<D>, b: &D::Val, lo: u8, hi: u8) -> D::Val {
    let l = st.dom.constant(8, lo as u128);
    let h = st.dom.constant(8, hi as u128);
    let ge = st.dom.cmp(CmpOp::Uge, 8, b, &l);
    let le = st.dom.cmp(CmpOp::Ule, 8, b, &h);
    st.dom.binop(BinOp::And, 1, &ge, &le)
}

fn decide_eq<D: Domain>(st: &mut State<D>, b: &D::Val, c: u8) -> bool {
    let k = st.dom.constant(8, c as u128);
    let eq = st.dom.cmp(CmpOp::Eq, 8, b, &k);
    st.dom.decide(Decision::LibraryBranch, &eq)
}

/// Reads one numeral from `src`; its value has width `w` (at most 64).
pub(super) fn read_decimal<D: Domain, S: ByteSource<D>>(
    st: &mut State<D>,
    src: &mut S,
    w: u32,
) -> Result<Numeral<D::Val>, End> {
    let mut b = loop {
        let Some(b) = src.next(st)? else {
            return Ok(Numeral::End);
        };
        let space = is_space(st, &b);
        if !st.dom.decide(Decision::LibraryBranch, &space) {
            break b;
        }
    };
    let negative = decide_eq(st, &b, b'-');
    if negative || decide_eq(st, &b, b'+') {
        match src.next(st)? {
            Some(x) => b = x,
            None => return Ok(Numeral::Mismatch),
        }
    }
    let mut magnitude = st.dom.constant(64, 0);
    let mut digits = 0;
    loop {
        let is_digit = byte_in(st, &b, b'0', b'9');
        if !st.dom.decide(Decision::LibraryBranch, &is_digit) {
            src.put_back(st, &b);
            break;
        }
        digits += 1;
        magnitude = push_digit(st, &magnitude, &b, digits > EXACT_DIGITS);
        match src.next(st)? {
            Some(x) => b = x,
            None => break,
        }
    }
    if digits == 0 {
        return Ok(Numeral::Mismatch);
    }
    let long = signed_long(st, &magnitude, negative, digits > EXACT_DIGITS);
    Ok(Numeral::Value(if w < 64 {
        st.dom.cast(CastOp::Trunc, 64, w, &long)
    } else {
        long
    }))
}

/// `magnitude * 10 + digit`, kept at [`TOO_BIG`] once it passes 2^63 when `may_overflow`.
fn push_digit<D: Domain>(
    st: &mut State<D>,
    magnitude: &D::Val,
    digit: &D::Val,
    may_overflow: bool,
) -> D::Val {
    let d = st.dom.cast(CastOp::ZExt, 8, 64, digit);
    let zero = st.dom.constant(64, b'0' as u128);
    let d = st.dom.binop(BinOp::Sub, 64, &d, &zero);
    let ten = st.dom.constant(64, 10);
    let shifted = st.dom.binop(BinOp::Mul, 64, magnitude, &ten);
    let next = st.dom.binop(BinOp::Add, 64, &shifted, &d);
    if !may_overflow {
        return next;
    }
    let mul_over = st.dom.overflows(OverflowOp::UMul, 64, magnitude, &ten);
    let add_over = st.dom.overflows(OverflowOp::UAdd, 64, &shifted, &d);
    let limit = st.dom.constant(64, LONG_MIN_BITS);
    let above = st.dom.cmp(CmpOp::Ugt, 64, &next, &limit);
    let over = st.dom.binop(BinOp::Or, 1, &mul_over, &add_over);
    let over = st.dom.binop(BinOp::Or, 1, &over, &above);
    let too_big = st.dom.constant(64, TOO_BIG);
    st.dom.ite(&over, 64, &too_big, &next)
}

/// The `long` of a magnitude and sign: `LONG_MAX`/`LONG_MIN` when out of range (only possible when
/// `may_overflow`).
fn signed_long<D: Domain>(
    st: &mut State<D>,
    magnitude: &D::Val,
    negative: bool,
    may_overflow: bool,
) -> D::Val {
    let value = if negative {
        st.dom.unop(UnOp::Neg, 64, magnitude)
    } else {
        magnitude.clone()
    };
    if !may_overflow {
        return value;
    }
    let (bound, saturated) = if negative {
        (LONG_MIN_BITS, LONG_MIN_BITS)
    } else {
        (LONG_MAX, LONG_MAX)
    };
    let bound = st.dom.constant(64, bound);
    let out = st.dom.cmp(CmpOp::Ugt, 64, magnitude, &bound);
    let saturated = st.dom.constant(64, saturated);
    st.dom.ite(&out, 64, &saturated, &value)
}
