//! Rewrites of the bit-vector operators: neutral and absorbing elements, constants gathered
//! on the left of `bvadd`/`bvmul`, extract/concat/extend algebra, and comparisons of a term
//! with itself or with the ends of its range. Arguments arrive sort-checked and not all
//! constant; commutative operators have any constant first.

use crate::bvsem::{self, mask};
use crate::intern;
use crate::range;
use crate::sort::Sort;
use crate::term::{Op, Term};

pub(super) fn build(op: Op, sort: Sort, args: Vec<Term>) -> Term {
    let w = match sort {
        Sort::BitVec(w) => w,
        _ => args[0].width(),
    };
    let rewritten = match &op {
        Op::BvNot | Op::BvNeg => involution(&op, &args[0]),
        Op::BvAdd => add(&args[0], &args[1], w),
        Op::BvSub => sub(&args[0], &args[1], w),
        Op::BvMul => mul(&args[0], &args[1], w),
        Op::BvUdiv | Op::BvUrem | Op::BvSdiv | Op::BvSrem | Op::BvSmod => {
            division(&op, &args[0], &args[1], w)
        }
        Op::BvAnd | Op::BvOr | Op::BvXor => bitwise(&op, &args[0], &args[1], w),
        Op::BvShl | Op::BvLshr | Op::BvAshr => shift(&op, &args[0], &args[1], w),
        Op::BvUlt | Op::BvUle | Op::BvSlt | Op::BvSle => compare(&op, &args[0], &args[1], w),
        Op::Concat => concat(&args[0], &args[1]),
        Op::Extract { hi, lo } => extract(&args[0], *hi, *lo),
        Op::ZeroExt(n) | Op::SignExt(n) => extend(&op, &args[0], *n),
        _ => None,
    };
    rewritten.unwrap_or_else(|| intern::mk(op, sort, args))
}

fn is_zero(t: &Term) -> bool {
    t.as_bv() == Some(0)
}

fn is_ones(t: &Term, w: u32) -> bool {
    t.as_bv() == Some(mask(w))
}

fn involution(op: &Op, a: &Term) -> Option<Term> {
    (a.op() == op).then(|| a.arg(0).clone())
}

fn add(a: &Term, b: &Term, w: u32) -> Option<Term> {
    if let Some(c) = a.as_bv() {
        if c == 0 {
            return Some(b.clone());
        }
        // c + zext(y) = c[hi:yw] ++ y when the low bits of c are zero: no carry can occur.
        // (Addresses are object base + zero-extended offset; this keeps the object visible.)
        if let Op::ZeroExt(_) = b.op() {
            let y = b.arg(0);
            let yw = y.width();
            if c & mask(yw) == 0 {
                return Some(Term::bv(c >> yw, w - yw).concat(y));
            }
        }
        // c + (d + x) = (c + d) + x
        if b.op() == &Op::BvAdd {
            if let Some(d) = b.arg(0).as_bv() {
                return Some(Term::bv(bvsem::add(c, d, w), w).bvadd(b.arg(1)));
            }
        }
        return None;
    }
    // Gather constants to the outside: x + (c + y) = c + (x + y).
    for (x, y) in [(a, b), (b, a)] {
        if y.op() == &Op::BvAdd && y.arg(0).is_const() {
            return Some(y.arg(0).bvadd(&x.bvadd(y.arg(1))));
        }
    }
    None
}

fn sub(a: &Term, b: &Term, w: u32) -> Option<Term> {
    if a == b {
        return Some(Term::bv(0, w));
    }
    if let Some(c) = b.as_bv() {
        return Some(Term::bv(bvsem::neg(c, w), w).bvadd(a));
    }
    if is_zero(a) {
        return Some(b.bvneg());
    }
    // (c + x + y) - (d + x) = (c - d) + y: the difference of two addresses of one object cancels the
    // object's (symbolic) base.
    let (c, mut xs) = addends(a);
    let (d, mut ys) = addends(b);
    let before = xs.len() + ys.len();
    xs.retain(|x| match ys.iter().position(|y| y == x) {
        Some(i) => {
            ys.swap_remove(i);
            false
        }
        None => true,
    });
    if xs.len() + ys.len() == before {
        return None;
    }
    let sum = |k: u128, ts: &[Term]| {
        ts.iter()
            .fold(Term::bv(k, w), |acc: Term, t: &Term| acc.bvadd(t))
    };
    Some(sum(c, &xs).bvsub(&sum(d, &ys)))
}

/// A sum's constant and its other addends (nested additions flattened, a few levels deep).
fn addends(t: &Term) -> (u128, Vec<Term>) {
    fn walk(t: &Term, depth: u32, c: &mut u128, out: &mut Vec<Term>) {
        if t.op() == &Op::BvAdd && depth < 6 {
            walk(t.arg(0), depth + 1, c, out);
            walk(t.arg(1), depth + 1, c, out);
        } else if let Some(k) = t.as_bv() {
            *c = bvsem::add(*c, k, t.width());
        } else {
            out.push(t.clone());
        }
    }
    let (mut c, mut out) = (0, Vec::new());
    walk(t, 0, &mut c, &mut out);
    (c, out)
}

fn mul(a: &Term, b: &Term, w: u32) -> Option<Term> {
    let c = a.as_bv()?;
    if c == 0 {
        return Some(a.clone());
    }
    if c == 1 {
        return Some(b.clone());
    }
    if c == mask(w) {
        return Some(b.bvneg());
    }
    if b.op() == &Op::BvMul {
        if let Some(d) = b.arg(0).as_bv() {
            return Some(Term::bv(bvsem::mul(c, d, w), w).bvmul(b.arg(1)));
        }
    }
    None
}

fn division(op: &Op, a: &Term, b: &Term, w: u32) -> Option<Term> {
    let c = b.as_bv()?;
    match (op, c) {
        (Op::BvUdiv, 0) => Some(Term::bv(mask(w), w)),
        (Op::BvUrem | Op::BvSrem | Op::BvSmod, 0) => Some(a.clone()),
        (Op::BvUdiv | Op::BvSdiv, 1) => Some(a.clone()),
        (Op::BvUrem | Op::BvSrem | Op::BvSmod, 1) => Some(Term::bv(0, w)),
        (Op::BvUdiv, c) if c.is_power_of_two() => {
            Some(a.bvlshr(&Term::bv(u128::from(c.trailing_zeros()), w)))
        }
        (Op::BvUrem, c) if c.is_power_of_two() => Some(a.bvand(&Term::bv(c - 1, w))),
        _ => None,
    }
}

fn bitwise(op: &Op, a: &Term, b: &Term, w: u32) -> Option<Term> {
    let complementary =
        (a.op() == &Op::BvNot && a.arg(0) == b) || (b.op() == &Op::BvNot && b.arg(0) == a);
    match op {
        Op::BvAnd if is_zero(a) => Some(a.clone()),
        Op::BvAnd if is_ones(a, w) => Some(b.clone()),
        Op::BvAnd if complementary => Some(Term::bv(0, w)),
        Op::BvOr if is_zero(a) => Some(b.clone()),
        Op::BvOr if is_ones(a, w) => Some(a.clone()),
        Op::BvOr if complementary => Some(Term::bv(mask(w), w)),
        Op::BvAnd | Op::BvOr if a == b => Some(a.clone()),
        Op::BvXor if is_zero(a) => Some(b.clone()),
        Op::BvXor if is_ones(a, w) => Some(b.bvnot()),
        Op::BvXor if a == b => Some(Term::bv(0, w)),
        Op::BvXor if complementary => Some(Term::bv(mask(w), w)),
        _ => None,
    }
}

fn shift(op: &Op, a: &Term, b: &Term, w: u32) -> Option<Term> {
    if is_zero(a) || is_zero(b) {
        return Some(a.clone());
    }
    match (op, b.as_bv()) {
        (Op::BvShl | Op::BvLshr, Some(k)) if k >= u128::from(w) => Some(Term::bv(0, w)),
        // A logical right shift of a concatenation or extension is an extraction, which the
        // extract rules then take apart.
        (Op::BvLshr, Some(k)) if matches!(a.op(), Op::Concat | Op::ZeroExt(_)) => {
            let k = k as u32;
            Some(a.extract(w - 1, k).zext(k))
        }
        _ => None,
    }
}

fn compare(op: &Op, a: &Term, b: &Term, w: u32) -> Option<Term> {
    if a == b {
        return Some(Term::bool(matches!(op, Op::BvUle | Op::BvSle)));
    }
    if let Some(t) = narrowed(op, a, b) {
        return Some(t);
    }
    if let Some(t) = by_ranges(op, a, b) {
        return Some(t);
    }
    let min_signed = 1u128 << (w - 1);
    let max_signed = min_signed - 1;
    let zero = || Term::bv(0, w);
    match op {
        Op::BvUlt if is_zero(b) || is_ones(a, w) => Some(Term::ff()),
        Op::BvUlt if is_zero(a) => Some(b.ne(&zero())),
        Op::BvUlt if is_ones(b, w) => Some(a.ne(b)),
        Op::BvUle if is_zero(a) || is_ones(b, w) => Some(Term::tt()),
        Op::BvUle if is_zero(b) => Some(a.eq(b)),
        Op::BvUle if is_ones(a, w) => Some(a.eq(b)),
        Op::BvSlt if b.as_bv() == Some(min_signed) || a.as_bv() == Some(max_signed) => {
            Some(Term::ff())
        }
        Op::BvSle if a.as_bv() == Some(min_signed) || b.as_bv() == Some(max_signed) => {
            Some(Term::tt())
        }
        _ => None,
    }
}

/// Comparisons of an extended term with a constant or with another term extended the same
/// way are decided on the narrow operand (C compares promoted `char`s everywhere): the
/// constant either lies outside the narrow range, which decides the comparison, or is
/// truncated without loss.
fn narrowed(op: &Op, a: &Term, b: &Term) -> Option<Term> {
    let signed = matches!(op, Op::BvSlt | Op::BvSle);
    let ext = |t: &Term| match t.op() {
        Op::ZeroExt(_) if !signed => Some(t.arg(0).clone()),
        Op::SignExt(_) if signed => Some(t.arg(0).clone()),
        _ => None,
    };
    let narrow = |x: &Term, y: &Term| Term::new_vec(op.clone(), vec![x.clone(), y.clone()]);
    match (ext(a), ext(b)) {
        (Some(x), Some(y)) if x.width() == y.width() => Some(narrow(&x, &y)),
        (Some(x), None) => {
            let c = b.as_bv()?;
            let w = b.width();
            let xw = x.width();
            Some(match range_position(c, w, xw, signed) {
                Position::Below => Term::ff(),
                Position::Above => Term::tt(),
                Position::AtMin if op_is_strict(op) => Term::ff(),
                Position::AtMax if !op_is_strict(op) => Term::tt(),
                _ => narrow(&x, &Term::bv(c, xw)),
            })
        }
        (None, Some(y)) => {
            let c = a.as_bv()?;
            let w = a.width();
            let yw = y.width();
            Some(match range_position(c, w, yw, signed) {
                Position::Below => Term::tt(),
                Position::Above => Term::ff(),
                Position::AtMax if op_is_strict(op) => Term::ff(),
                Position::AtMin if !op_is_strict(op) => Term::tt(),
                _ => narrow(&Term::bv(c, yw), &y),
            })
        }
        _ => None,
    }
}

fn op_is_strict(op: &Op) -> bool {
    matches!(op, Op::BvUlt | Op::BvSlt)
}

/// Where the `w`-bit constant `c` lies relative to the values a `nw`-bit operand takes once
/// extended (unsigned: `0 ..= 2^nw - 1`; signed: `-2^(nw-1) ..= 2^(nw-1) - 1`).
enum Position {
    Below,
    AtMin,
    Inside,
    AtMax,
    Above,
}

fn range_position(c: u128, w: u32, nw: u32, signed: bool) -> Position {
    let (v, min, max) = if signed {
        let v = bvsem::to_signed(c, w);
        let half = 1i128 << (nw - 1);
        (v, -half, half - 1)
    } else {
        // Widths are at most 128 bits; compare as unsigned through i128-safe steps.
        let max = mask(nw);
        return if c > max {
            Position::Above
        } else if c == max {
            Position::AtMax
        } else if c == 0 {
            Position::AtMin
        } else {
            Position::Inside
        };
    };
    if v < min {
        Position::Below
    } else if v == min {
        Position::AtMin
    } else if v > max {
        Position::Above
    } else if v == max {
        Position::AtMax
    } else {
        Position::Inside
    }
}

fn concat(a: &Term, b: &Term) -> Option<Term> {
    if is_zero(a) {
        return Some(b.zext(a.width()));
    }
    // x[hi:m+1] ++ x[m:lo] = x[hi:lo]
    if let (Op::Extract { hi, lo: m1 }, Op::Extract { hi: m, lo }) = (a.op(), b.op()) {
        if a.arg(0) == b.arg(0) && *m1 == m + 1 {
            return Some(a.arg(0).extract(*hi, *lo));
        }
    }
    None
}

fn extract(x: &Term, hi: u32, lo: u32) -> Option<Term> {
    let w = x.width();
    if lo == 0 && hi == w - 1 {
        return Some(x.clone());
    }
    match x.op() {
        Op::Concat => {
            let (h, l) = (x.arg(0), x.arg(1));
            let lw = l.width();
            if hi < lw {
                Some(l.extract(hi, lo))
            } else if lo >= lw {
                Some(h.extract(hi - lw, lo - lw))
            } else {
                None
            }
        }
        Op::Extract { lo: inner_lo, .. } => Some(x.arg(0).extract(hi + inner_lo, lo + inner_lo)),
        Op::ZeroExt(_) => {
            let y = x.arg(0);
            let yw = y.width();
            if hi < yw {
                Some(y.extract(hi, lo))
            } else if lo >= yw {
                Some(Term::bv(0, hi - lo + 1))
            } else {
                Some(y.extract(yw - 1, lo).zext(hi - yw + 1))
            }
        }
        Op::SignExt(_) if hi < x.arg(0).width() => Some(x.arg(0).extract(hi, lo)),
        // The low bits of a sum are the sum of the low bits (arithmetic modulo 2^(hi+1)): a 32-bit
        // pointer difference then cancels the object's base like a 64-bit one.
        Op::BvAdd if lo == 0 => Some(x.arg(0).extract(hi, 0).bvadd(&x.arg(1).extract(hi, 0))),
        _ => None,
    }
}

fn extend(op: &Op, x: &Term, n: u32) -> Option<Term> {
    if n == 0 {
        return Some(x.clone());
    }
    match (op, x.op()) {
        (Op::ZeroExt(_), Op::ZeroExt(m)) => Some(x.arg(0).zext(n + m)),
        (Op::SignExt(_), Op::SignExt(m)) => Some(x.arg(0).sext(n + m)),
        _ => None,
    }
}

/// `=` on bit-vectors (`a` is the constant, if any): solves equations with a constant
/// through invertible operators, and splits them over concatenation.
pub(super) fn eq(args: Vec<Term>) -> Term {
    let (a, b) = (&args[0], &args[1]);
    if let Some(c) = a.as_bv() {
        if let Some(t) = eq_const(c, b) {
            return t;
        }
    }
    intern::mk(Op::Eq, Sort::Bool, args)
}

fn eq_const(c: u128, b: &Term) -> Option<Term> {
    if let Some(t) = eq_by_range(c, b) {
        return Some(t);
    }
    let w = b.width();
    let k = |v: u128| Term::bv(v, w);
    match b.op() {
        Op::BvAdd => {
            let d = b.arg(0).as_bv()?;
            Some(k(bvsem::sub(c, d, w)).eq(b.arg(1)))
        }
        Op::BvXor => {
            let d = b.arg(0).as_bv()?;
            Some(k(c ^ d).eq(b.arg(1)))
        }
        Op::BvNot => Some(k(!c & mask(w)).eq(b.arg(0))),
        Op::BvNeg => Some(k(bvsem::neg(c, w)).eq(b.arg(0))),
        Op::Concat => {
            let (h, l) = (b.arg(0), b.arg(1));
            let lw = l.width();
            let hi_part = Term::bv(c >> lw, h.width()).eq(h);
            let lo_part = Term::bv(c & mask(lw), lw).eq(l);
            Some(hi_part.and(&lo_part))
        }
        Op::ZeroExt(_) => {
            let x = b.arg(0);
            let xw = x.width();
            if c >> xw != 0 {
                Some(Term::ff())
            } else {
                Some(Term::bv(c, xw).eq(x))
            }
        }
        Op::SignExt(_) => {
            let x = b.arg(0);
            let xw = x.width();
            let low = c & mask(xw);
            if bvsem::sext(low, xw, w - xw) != c {
                Some(Term::ff())
            } else {
                Some(Term::bv(low, xw).eq(x))
            }
        }
        Op::Ite => {
            let (t, e) = (b.arg(1).as_bv()?, b.arg(2).as_bv()?);
            let cond = b.arg(0);
            Some(match (c == t, c == e) {
                (true, true) => Term::tt(),
                (true, false) => cond.clone(),
                (false, true) => cond.not(),
                (false, false) => Term::ff(),
            })
        }
        _ => None,
    }
}

/// `c = b` decided by `b`'s unsigned range: false when `c` lies outside it, true when the range is `c`
/// alone (the object a pointer near a known object belongs to, `owner(base + small offset) = owner(base)`).
fn eq_by_range(c: u128, b: &Term) -> Option<Term> {
    let (lo, hi) = range::unsigned(b);
    if c < lo || c > hi {
        Some(Term::ff())
    } else if lo == hi {
        Some(Term::tt())
    } else {
        None
    }
}

/// Unsigned comparisons decided by the operands' ranges (bounds offsets, masked indices): `a < b`
/// holds when every value of `a` is below every value of `b`, and fails when none is.
fn by_ranges(op: &Op, a: &Term, b: &Term) -> Option<Term> {
    let strict = match op {
        Op::BvUlt => true,
        Op::BvUle => false,
        _ => return None,
    };
    // Only worth it when one side is a constant: that is where masked or extended terms meet bounds.
    if !a.is_const() && !b.is_const() {
        return None;
    }
    let (alo, ahi) = range::unsigned(a);
    let (blo, bhi) = range::unsigned(b);
    let always = if strict { ahi < blo } else { ahi <= blo };
    let never = if strict { alo >= bhi } else { alo > bhi };
    if always {
        Some(Term::tt())
    } else if never {
        Some(Term::ff())
    } else {
        None
    }
}
