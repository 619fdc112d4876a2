//! The instruction semantics as terms: LLVM's integer operators, comparisons, overflow checks and
//! funnel shifts on bit-vector terms, and the multiplexer that reads an object at a symbolic offset.

use super::value::{SymByte, SymVal};
use symex_engine::domain::{BinOp, CmpOp, OverflowOp, UnOp, Width};
use symex_expr::{Op, Sort, Term};

/// A width-1 value as a Boolean term (undoing the `ite(c, 1, 0)` that comparisons build).
pub fn to_bool(t: &Term) -> Term {
    if let Op::Ite = t.op() {
        if t.arg(1).as_bv() == Some(1) && t.arg(2).as_bv() == Some(0) {
            return t.arg(0).clone();
        }
    }
    match t.as_bv() {
        Some(v) => Term::bool(v & 1 == 1),
        None => t.eq(&Term::bv(1, 1)),
    }
}

pub(super) fn bin(op: BinOp, a: &Term, b: &Term) -> Term {
    // Unsigned division and remainder by a power of two are shifts and masks: the same value, and no
    // divider circuit for the solver to bit-blast.
    if let Some(d) = b.as_bv().filter(|d| d.is_power_of_two()) {
        let w = b.width();
        match op {
            BinOp::URem => return a.bvand(&Term::bv(d - 1, w)),
            BinOp::UDiv => return a.bvlshr(&Term::bv(d.trailing_zeros() as u128, w)),
            _ => {}
        }
    }
    match op {
        BinOp::Add => a.bvadd(b),
        BinOp::Sub => a.bvsub(b),
        BinOp::Mul => a.bvmul(b),
        BinOp::UDiv => a.bvudiv(b),
        BinOp::SDiv => a.bvsdiv(b),
        BinOp::URem => a.bvurem(b),
        BinOp::SRem => a.bvsrem(b),
        BinOp::Shl => a.bvshl(b),
        BinOp::LShr => a.bvlshr(b),
        BinOp::AShr => a.bvashr(b),
        BinOp::And => a.bvand(b),
        BinOp::Or => a.bvor(b),
        BinOp::Xor => a.bvxor(b),
        BinOp::UMin => a.bvule(b).ite(a, b),
        BinOp::UMax => a.bvule(b).ite(b, a),
        BinOp::SMin => a.bvsle(b).ite(a, b),
        BinOp::SMax => a.bvsle(b).ite(b, a),
    }
}

pub(super) fn compare(op: CmpOp, a: &Term, b: &Term) -> Term {
    match op {
        CmpOp::Eq => a.eq(b),
        CmpOp::Ne => a.ne(b),
        CmpOp::Ult => a.bvult(b),
        CmpOp::Ule => a.bvule(b),
        CmpOp::Ugt => a.bvugt(b),
        CmpOp::Uge => a.bvuge(b),
        CmpOp::Slt => a.bvslt(b),
        CmpOp::Sle => a.bvsle(b),
        CmpOp::Sgt => a.bvsgt(b),
        CmpOp::Sge => a.bvsge(b),
    }
}

pub(super) fn bit(a: &Term, i: u32) -> Term {
    a.extract(i, i)
}

/// The sign bit of `a` as a Boolean.
pub(super) fn negative(a: &Term, w: Width) -> Term {
    bit(a, w - 1).eq(&Term::bv(1, 1))
}

pub(super) fn unary(op: UnOp, w: Width, a: &Term) -> Term {
    match op {
        UnOp::Not => a.bvnot(),
        UnOp::Neg => a.bvneg(),
        UnOp::Abs => negative(a, w).ite(&a.bvneg(), a),
        UnOp::Ctpop => (0..w).fold(Term::bv(0, w), |acc, i| acc.bvadd(&bit(a, i).zext_to(w))),
        // Leading zeros: the position of the highest set bit, found from the bottom up.
        UnOp::Ctlz => (0..w).fold(Term::bv(w as u128, w), |acc, i| {
            bit(a, i)
                .eq(&Term::bv(1, 1))
                .ite(&Term::bv((w - 1 - i) as u128, w), &acc)
        }),
        UnOp::Cttz => (0..w).rev().fold(Term::bv(w as u128, w), |acc, i| {
            bit(a, i)
                .eq(&Term::bv(1, 1))
                .ite(&Term::bv(i as u128, w), &acc)
        }),
        UnOp::Bswap => {
            let n = w / 8;
            (1..n).fold(a.extract(7, 0), |acc, i| {
                acc.concat(&a.extract(8 * i + 7, 8 * i))
            })
        }
        UnOp::BitReverse => (1..w).fold(bit(a, 0), |acc, i| acc.concat(&bit(a, i))),
    }
}

pub(super) fn overflow(op: OverflowOp, w: Width, a: &Term, b: &Term) -> Term {
    let wide = 2 * w <= symex_expr::MAX_BV_WIDTH;
    match op {
        OverflowOp::UAdd => a.bvadd(b).bvult(a),
        OverflowOp::USub => a.bvult(b),
        OverflowOp::SAdd => {
            let r = a.bvadd(b);
            negative(a, w)
                .eq(&negative(b, w))
                .and(&negative(&r, w).eq(&negative(a, w)).not())
        }
        OverflowOp::SSub => {
            let r = a.bvsub(b);
            negative(a, w)
                .eq(&negative(b, w))
                .not()
                .and(&negative(&r, w).eq(&negative(a, w)).not())
        }
        OverflowOp::UMul if wide => {
            let full = a.zext(w).bvmul(&b.zext(w));
            full.extract(2 * w - 1, w).ne(&Term::bv(0, w))
        }
        OverflowOp::SMul if wide => {
            let full = a.sext(w).bvmul(&b.sext(w));
            full.extract(w - 1, 0).sext(w).ne(&full)
        }
        // 128-bit products: the division check (a ≠ 0 and r / a ≠ b), plus MIN * -1 for signed.
        OverflowOp::UMul => {
            let r = a.bvmul(b);
            a.ne(&Term::bv(0, w)).and(&r.bvudiv(a).ne(b))
        }
        OverflowOp::SMul => {
            let r = a.bvmul(b);
            let min = Term::bv(1 << (w - 1), w);
            let m1 = Term::bv(u128::MAX, w);
            let special = a.eq(&m1).and(&b.eq(&min)).or(&b.eq(&m1).and(&a.eq(&min)));
            special.or(&a.ne(&Term::bv(0, w)).and(&r.bvsdiv(a).ne(b)))
        }
    }
}

pub(super) fn bool_bv(c: Term) -> Term {
    c.bool_to_bv1()
}

/// Where an `n`-byte access at the symbolic offset `off` of an object of `len` bytes, known to lie within
/// it, may start: the offset term and its least and greatest value (from the term's range, capped by the
/// last offset the access fits at). `None` for a constant offset, or an object of more than `limit` bytes
/// (at most [`super::MUX_LIMIT`]: larger ones are not accessed in place).
pub(super) fn start_offsets(
    len: usize,
    off: &SymVal,
    n: usize,
    limit: usize,
) -> Option<(&Term, usize, usize)> {
    let Err(o) = off.split() else { return None };
    if len > limit || len < n || n == 0 {
        return None;
    }
    let (lo, hi) = symex_expr::unsigned_range(o);
    let (lo, hi) = (lo as usize, (hi as usize).min(len - n));
    (lo <= hi).then_some((o, lo, hi))
}

/// Most bytes of an object stored over its array by [`object_array`] (each store is a case Z3's array
/// theory splits on, for every read).
const ARRAY_STORES: usize = 64;

/// `bytes` as one array term, byte `j` its element `j`, where that costs at most [`ARRAY_STORES`] stores:
/// the array the bytes are elements of (a large input's array, KLEE's symbolic array, or the array an
/// earlier write at a symbolic offset left, see [`super::Symbolic`]'s `update`) with the bytes written
/// since stored over it; else, for bytes that are mostly one constant (a zeroed or partly initialised
/// buffer), the constant array of that byte with the others stored over it. `None`: neither is cheap.
pub(super) fn object_array(bytes: &[SymByte]) -> Option<Term> {
    element_array(bytes).or_else(|| constant_array(bytes))
}

/// The array most of `bytes` are their own elements of, with the others stored over it.
fn element_array(bytes: &[SymByte]) -> Option<Term> {
    let base = bytes
        .iter()
        .enumerate()
        .take(ARRAY_STORES + 1)
        .find_map(|(j, b)| own_element(b, j))?;
    let own = |j: usize, b: &SymByte| own_element(b, j).as_ref() == Some(&base);
    stored_over(base.clone(), bytes, own)
}

/// The constant array of the commonest constant byte of `bytes` (among the first [`ARRAY_STORES`] + 1,
/// which hold it when at most [`ARRAY_STORES`] bytes differ), with the others stored over it.
fn constant_array(bytes: &[SymByte]) -> Option<Term> {
    let mut counts = [0usize; 256];
    for b in bytes.iter().take(ARRAY_STORES + 1) {
        if let SymByte::Const(c) = b {
            counts[*c as usize] += 1;
        }
    }
    let fill = (0..256)
        .max_by_key(|&c| counts[c])
        .filter(|&c| counts[c] > 0)? as u8;
    let base = Term::const_array(Sort::array(32, 8), &Term::bv(fill as u128, 8));
    stored_over(base, bytes, |_, b| *b == SymByte::Const(fill))
}

/// `base` with every byte of `bytes` that is not `kept` stored over it at its offset; `None` past
/// [`ARRAY_STORES`] stores.
fn stored_over(
    base: Term,
    bytes: &[SymByte],
    kept: impl Fn(usize, &SymByte) -> bool,
) -> Option<Term> {
    let mut arr = base;
    let mut stores = 0;
    for (j, b) in bytes.iter().enumerate() {
        if kept(j, b) {
            continue;
        }
        stores += 1;
        if stores > ARRAY_STORES {
            return None;
        }
        arr = arr.store(&Term::bv(j as u128, 32), &b.term());
    }
    Some(arr)
}

/// The array whose element `j` the byte `b` is.
fn own_element(b: &SymByte, j: usize) -> Option<Term> {
    let SymByte::Sym(t) = b else { return None };
    let own = t.op() == &Op::Select && t.arg(1).as_bv() == Some(j as u128);
    own.then(|| t.arg(0).clone())
}

/// The value at offset `o` (at most `hi`) among the leaves whose offsets agree with `base` on the bits
/// above the low `bits` ones: one `ite` per bit, skipping halves that lie past `hi`.
pub(super) fn mux(
    o: &Term,
    base: usize,
    bits: u32,
    hi: usize,
    leaf: &mut dyn FnMut(usize) -> Term,
) -> Term {
    if bits == 0 {
        return leaf(base);
    }
    let b = bits - 1;
    let upper = base + (1 << b);
    if upper > hi {
        return mux(o, base, b, hi, leaf);
    }
    let set = o.extract(b, b).eq(&Term::bv(1, 1));
    let then = mux(o, upper, b, hi, leaf);
    let other = mux(o, base, b, hi, leaf);
    set.ite(&then, &other)
}

/// `llvm.fshl` / `llvm.fshr` on terms.
pub(super) fn funnel(left: bool, w: Width, a: &Term, b: &Term, s: &Term) -> Term {
    let s = s.bvurem(&Term::bv(w as u128, w));
    if 2 * w > symex_expr::MAX_BV_WIDTH {
        // shl/lshr by w are 0 in SMT-LIB, so the s = 0 case needs its own arm.
        let zero = s.eq(&Term::bv(0, w));
        let inv = Term::bv(w as u128, w).bvsub(&s);
        return if left {
            zero.ite(a, &a.bvshl(&s).bvor(&b.bvlshr(&inv)))
        } else {
            zero.ite(b, &a.bvshl(&inv).bvor(&b.bvlshr(&s)))
        };
    }
    let both = a.concat(b);
    let s2 = s.zext(w);
    if left {
        both.bvshl(&s2).extract(2 * w - 1, w)
    } else {
        both.bvlshr(&s2).extract(w - 1, 0)
    }
}
