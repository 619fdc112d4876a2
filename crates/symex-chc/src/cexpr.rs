//! Invariants as C expressions over the program's variables (what a correctness witness's
//! `invariant_set` holds). A bit-vector of width `w` is printed as a value of C's unsigned type of
//! that width, arithmetic is done in `unsigned long long` and cast back (wrapping, never signed
//! overflow), and a signed comparison casts both sides to the signed type of the width, so the
//! expression means in C exactly what the term means. Conjuncts that mention a value without a name
//! (a register, an input no variable holds) or an operator without a faithful C form are left out: each
//! conjunct of an invariant is itself true at every arrival.

use rustc_hash::FxHashMap;
use symex_expr::{Op, Sort, Term};

/// The conjuncts of `inv` printed as C (in order), and how many were left out.
pub fn conjuncts(inv: &Term, names: &FxHashMap<Term, String>) -> (Vec<String>, usize) {
    let mut parts = Vec::new();
    split(inv, &mut parts);
    let mut out = Vec::new();
    let mut omitted = 0;
    for p in parts {
        match boolean(&p, names) {
            Some(s) if p.is_true() => drop(s),
            Some(s) => out.push(s),
            None => omitted += 1,
        }
    }
    (out, omitted)
}

fn split(t: &Term, out: &mut Vec<Term>) {
    if matches!(t.op(), Op::And) {
        for a in t.args() {
            split(a, out);
        }
    } else {
        out.push(t.clone());
    }
}

fn unsigned(w: u32) -> Option<&'static str> {
    symex_engine::invariant::c_integer_type(w, false)
}

fn signed(w: u32) -> Option<&'static str> {
    symex_engine::invariant::c_integer_type(w, true)
}

/// A Boolean term as a C condition.
fn boolean(t: &Term, names: &FxHashMap<Term, String>) -> Option<String> {
    let a = t.args();
    let b = |i: usize| boolean(&a[i], names);
    let v = |i: usize| bits(&a[i], names);
    let s = |i: usize| {
        let w = a[i].width();
        Some(format!("(({}){})", signed(w)?, bits(&a[i], names)?))
    };
    // Spacer's integer arithmetic, evaluated exactly in a width wider than C's: printed as `long
    // long` when every value of both sides fits it, so that C computes the same numbers.
    if a.len() == 2 && a[0].sort() != Sort::Bool && a[0].width() > 64 {
        let (l, r) = (wide_int(&a[0], names)?, wide_int(&a[1], names)?);
        return Some(match t.op() {
            Op::Eq => format!("({l} == {r})"),
            Op::BvSle => format!("({l} <= {r})"),
            Op::BvSlt => format!("({l} < {r})"),
            _ => return None,
        });
    }
    Some(match t.op() {
        Op::BoolConst(true) => "1".into(),
        Op::BoolConst(false) => "0".into(),
        Op::Not => format!("!{}", b(0)?),
        Op::And | Op::Or => {
            let sep = if matches!(t.op(), Op::And) {
                " && "
            } else {
                " || "
            };
            let parts: Option<Vec<String>> = (0..a.len()).map(b).collect();
            format!("({})", parts?.join(sep))
        }
        Op::Implies => format!("(!{} || {})", b(0)?, b(1)?),
        Op::Xor => format!("(!{} != !{})", b(0)?, b(1)?),
        Op::Ite => format!("({} ? {} : {})", b(0)?, b(1)?, b(2)?),
        Op::Eq if a[0].sort() == Sort::Bool => format!("(!{} == !{})", b(0)?, b(1)?),
        Op::Eq if a[0].width() == 1 => {
            format!("({} == {})", bit(&a[0], names)?, bit(&a[1], names)?)
        }
        Op::Eq => format!("({} == {})", v(0)?, v(1)?),
        Op::BvUle => format!("({} <= {})", v(0)?, v(1)?),
        Op::BvUlt => format!("({} < {})", v(0)?, v(1)?),
        Op::BvSle => format!("({} <= {})", s(0)?, s(1)?),
        Op::BvSlt => format!("({} < {})", s(0)?, s(1)?),
        _ => return None,
    })
}

/// A bit-vector term as a C expression of the unsigned type of its width.
fn bits(t: &Term, names: &FxHashMap<Term, String>) -> Option<String> {
    let w = t.width();
    let ty = unsigned(w)?;
    let a = t.args();
    let v = |i: usize| bits(&a[i], names);
    let wide = |i: usize| Some(format!("(unsigned long long){}", v(i)?));
    let binary = |op: &str| -> Option<String> {
        let parts: Option<Vec<String>> = (0..a.len()).map(wide).collect();
        Some(format!("(({ty})({}))", parts?.join(&format!(" {op} "))))
    };
    Some(match t.op() {
        Op::Var(_) => format!("(({ty}){})", names.get(t)?),
        Op::BvConst { value, .. } => format!("(({ty}){value}ULL)"),
        Op::BvAdd => binary("+")?,
        Op::BvSub => binary("-")?,
        Op::BvMul => binary("*")?,
        Op::BvAnd => binary("&")?,
        Op::BvOr => binary("|")?,
        Op::BvXor => binary("^")?,
        Op::BvNeg => format!("(({ty})(0ULL - {}))", wide(0)?),
        Op::BvNot => format!("(({ty})~{})", wide(0)?),
        Op::Ite => format!("({} ? {} : {})", boolean(&a[0], names)?, v(1)?, v(2)?),
        Op::Extract { hi, lo } if *hi - *lo + 1 == w => format!("(({ty})({} >> {lo}))", wide(0)?),
        Op::ZeroExt(_) => format!("(({ty}){})", v(0)?),
        Op::SignExt(_) => format!("(({ty})({}){})", signed(a[0].width())?, v(0)?),
        Op::Concat if a.len() == 2 => {
            format!(
                "(({ty})(({} << {}) | {}))",
                wide(0)?,
                a[1].width(),
                wide(1)?
            )
        }
        // By a constant other than 0 (and -1, signed: `INT_MIN / -1` overflows in C), C's quotient is
        // the bit-vectors' (both truncate towards zero).
        Op::BvUdiv | Op::BvUrem if a[1].as_bv().is_some_and(|c| c != 0) => {
            let op = if matches!(t.op(), Op::BvUdiv) {
                "/"
            } else {
                "%"
            };
            format!("(({ty})({} {op} {}))", v(0)?, v(1)?)
        }
        Op::BvSdiv | Op::BvSrem
            if a[1]
                .as_bv()
                .is_some_and(|c| c != 0 && c != (1u128 << w) - 1) =>
        {
            let op = if matches!(t.op(), Op::BvSdiv) {
                "/"
            } else {
                "%"
            };
            let sty = signed(w)?;
            format!("(({ty})(({sty}){} {op} ({sty}){}))", v(0)?, v(1)?)
        }
        // Division by zero and shifts by the width or more are defined on bit-vectors, not in C.
        _ => return None,
    })
}

/// A one-bit term (a constant, single bits of values and their XOR, as [`crate::parity`] writes
/// relations) as a C `int` that is 0 or 1: the bits of one value that together are all of its bits
/// as `__builtin_parity` of it (GCC's and Clang's).
fn bit(t: &Term, names: &FxHashMap<Term, String>) -> Option<String> {
    let mut leaves = Vec::new();
    xor_leaves(t, &mut leaves);
    let mut constant = 0u128;
    // Per value, the bits it contributes (a bit counted twice cancels).
    let mut values: Vec<(Term, Vec<u32>)> = Vec::new();
    for l in leaves {
        if let Some(c) = l.as_bv() {
            constant ^= c;
            continue;
        }
        let Op::Extract { hi, lo } = l.op() else {
            return None;
        };
        if hi != lo {
            return None;
        }
        let x = l.args()[0].clone();
        let at = values.iter().position(|(y, _)| *y == x);
        let bits = match at {
            Some(i) => &mut values[i].1,
            None => {
                values.push((x, Vec::new()));
                &mut values.last_mut()?.1
            }
        };
        match bits.iter().position(|b| b == lo) {
            Some(i) => {
                bits.swap_remove(i);
            }
            None => bits.push(*lo),
        }
    }
    let mut parts = Vec::new();
    for (x, mut bs) in values {
        let w = x.width();
        let value = bits(&x, names)?;
        bs.sort_unstable();
        if bs.len() as u32 == w && w <= 64 {
            let f = if w > 32 {
                "__builtin_parityll"
            } else {
                "__builtin_parity"
            };
            parts.push(format!("{f}({value})"));
        } else {
            for b in bs {
                parts.push(format!("(int)(((unsigned long long){value} >> {b}) & 1)"));
            }
        }
    }
    if constant & 1 == 1 || parts.is_empty() {
        parts.push((constant & 1).to_string());
    }
    Some(format!("({})", parts.join(" ^ ")))
}

/// The operands of a tree of XORs.
fn xor_leaves(t: &Term, out: &mut Vec<Term>) {
    if matches!(t.op(), Op::BvXor) {
        for a in t.args() {
            xor_leaves(a, out);
        }
    } else {
        out.push(t.clone());
    }
}

/// A term wider than 64 bits whose every subterm's value, read as a signed number, lies in `long
/// long`'s range (by interval arithmetic over its variables' widths), as a `long long` expression:
/// then C's signed arithmetic neither overflows nor differs from the term's. Otherwise `None`.
fn wide_int(t: &Term, names: &FxHashMap<Term, String>) -> Option<String> {
    range(t)?;
    let a = t.args();
    let v = |i: usize| wide_int(&a[i], names);
    let fold = |op: &str| -> Option<String> {
        let parts: Option<Vec<String>> = (0..a.len()).map(v).collect();
        Some(format!("({})", parts?.join(&format!(" {op} "))))
    };
    Some(match t.op() {
        Op::BvConst { .. } => format!("{}LL", signed_value(t)?),
        Op::ZeroExt(_) | Op::SignExt(_) => format!("((long long){})", narrow(t, names)?),
        Op::BvAdd => fold("+")?,
        Op::BvSub => fold("-")?,
        Op::BvMul => fold("*")?,
        Op::BvNeg => format!("(-{})", v(0)?),
        _ => return None,
    })
}

/// The extension of a variable of at most 32 bits: the variable read as its C type of that
/// signedness (an `int`-sized or smaller value converts to `long long` exactly).
fn narrow(t: &Term, names: &FxHashMap<Term, String>) -> Option<String> {
    let inner = &t.args()[0];
    let w = inner.width();
    if w > 32 {
        return None;
    }
    let u = bits(inner, names)?;
    Some(match t.op() {
        Op::SignExt(_) => format!("(({}){u})", signed(w)?),
        _ => u,
    })
}

/// A wide constant's value as a signed number (two's complement in its width), when it fits `i64`.
fn signed_value(t: &Term) -> Option<i64> {
    let Op::BvConst { value, width } = t.op() else {
        return None;
    };
    let shift = 128 - width;
    let v = ((*value << shift) as i128) >> shift;
    i64::try_from(v).ok()
}

/// The interval of a wide term's values (as signed numbers), when every subterm's lies in `i64`.
fn range(t: &Term) -> Option<(i128, i128)> {
    let a = t.args();
    let fits = |(lo, hi): (i128, i128)| {
        (lo >= i128::from(i64::MIN) && hi <= i128::from(i64::MAX)).then_some((lo, hi))
    };
    let r = match t.op() {
        Op::BvConst { .. } => {
            let v = i128::from(signed_value(t)?);
            (v, v)
        }
        Op::ZeroExt(_) | Op::SignExt(_) => {
            let w = a[0].width();
            if w > 32 {
                return None;
            }
            if matches!(t.op(), Op::ZeroExt(_)) {
                (0, (1i128 << w) - 1)
            } else {
                (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
            }
        }
        Op::BvAdd | Op::BvSub | Op::BvMul => {
            let mut acc = range(&a[0])?;
            for b in &a[1..] {
                let (l, h) = range(b)?;
                acc = match t.op() {
                    Op::BvAdd => (acc.0 + l, acc.1 + h),
                    Op::BvSub => (acc.0 - h, acc.1 - l),
                    _ => {
                        let p = [acc.0 * l, acc.0 * h, acc.1 * l, acc.1 * h];
                        (*p.iter().min()?, *p.iter().max()?)
                    }
                };
                acc = fits(acc)?;
            }
            acc
        }
        Op::BvNeg => {
            let (l, h) = range(&a[0])?;
            (-h, -l)
        }
        _ => return None,
    };
    fits(r)
}
