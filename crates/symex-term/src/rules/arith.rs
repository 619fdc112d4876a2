//! Arithmetic ([B] §3.2–3.4): add/sub by case analysis (no overflow, overflow with
//! wrap-around, `nsw` overflow → ERR); mul and shl by a literal through the modulo relation
//! `v = s − k·2ⁿ` (of two variables: [`super::nonlinear`]); udiv/urem/lshr/sdiv/srem/ashr by
//! a positive literal as floor brackets, by a variable as bounds; bitwise operations by
//! range facts. Operations the linear model cannot express give a fresh value of the right
//! range (an over-approximation), after proving the absence of undefined behaviour
//! (division by zero, oversized shifts).

use super::{range, within, Exec, Outcome, R};
use crate::state::{eq, ge, ge_c, le_c, smax, smin, umax, Reading, State};
use symex_ir::{ArithFlags, BinOp, Operand, Slot};
use symex_its::{Atom, Poly, Rel};

enum Res {
    Val(Poly),
    Err(&'static str),
}

/// Successors of a case analysis whose cases yield values or ERR.
fn finish(
    ex: &mut Exec,
    st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    cases: Vec<(Vec<Atom>, Res)>,
) -> R<Vec<State>> {
    let mut out = Vec::new();
    for (mut s, res) in ex.split(st, cases) {
        match res {
            Res::Val(p) => {
                ex.bind(&mut s, dst, p, width, reading);
                out.push(s);
            }
            Res::Err(what) if ex.ub_ends_run => {
                let at = format!("{}: {what}", ex.here(&s));
                ex.ub_cut.push(at);
                s.halted = true;
                out.push(s);
            }
            Res::Err(what) => return Err(ex.err(&s, what)),
        }
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
pub fn binary(
    ex: &mut Exec,
    mut st: State,
    op: BinOp,
    flags: ArithFlags,
    width: u32,
    dst: Slot,
    lhs: Operand,
    rhs: Operand,
) -> R<Vec<State>> {
    let f = st.top().func;
    if !matches!(op, BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem)
        && unselected(ex, &st, dst)
    {
        // A speculated operation (simplifycfg hoists both arms of `c ? x&(x-1) : x+1`) whose
        // value no select takes in this state: its overflow would be poison that nothing
        // reads, not undefined behaviour, so it gets any value instead of a case analysis:
        // the literal 0 (a fresh variable would make a concrete state symbolic).
        st.top_mut().regs.insert(dst, crate::state::Val::Const(0));
        return Ok(vec![st]);
    }
    let reading = match op {
        BinOp::SDiv | BinOp::SRem | BinOp::AShr => Reading::Signed,
        BinOp::UDiv | BinOp::URem | BinOp::LShr | BinOp::And | BinOp::Or | BinOp::Xor => {
            Reading::Unsigned
        }
        _ if flags.nsw() => Reading::Signed,
        _ if flags.nuw() => Reading::Unsigned,
        _ => ex.class.reading(f, dst),
    };
    let a = ex.operand(&mut st, lhs, width, reading)?;
    let b = ex.operand(&mut st, rhs, width, reading)?;
    if let (Some(x), Some(y)) = (a.as_constant(), b.as_constant()) {
        if let Some(v) = fold(ex, op, flags, width, reading, x, y) {
            return match v {
                Ok(v) => {
                    ex.bind(&mut st, dst, Poly::constant(v), width, reading);
                    Ok(vec![st])
                }
                Err(what) => Err(ex.err(&st, what)),
            };
        }
    }
    let no_wrap = flags.nsw() || flags.nuw();
    match op {
        BinOp::Add => add_sub(ex, st, dst, width, reading, no_wrap, a.add(&b)),
        BinOp::Sub => add_sub(ex, st, dst, width, reading, no_wrap, a.sub(&b)),
        BinOp::Mul => match (a.as_constant(), b.as_constant()) {
            (Some(c), _) => modulo(ex, st, dst, width, reading, no_wrap, b.scale(c)),
            (_, Some(c)) => modulo(ex, st, dst, width, reading, no_wrap, a.scale(c)),
            _ => {
                let ub = no_wrap && !wraps(ex, reading);
                let what = "`mul nsw` of two variables";
                let tried = super::nonlinear::mul(ex, st.clone(), dst, width, reading, ub, &a, &b);
                nonlinear_or_cut(ex, st, dst, width, reading, ub, tried, what)
            }
        },
        BinOp::Shl => {
            let amount = shift_amount(ex, &st, &b, width)?;
            match amount {
                Some(s) => modulo(ex, st, dst, width, reading, no_wrap, a.scale(1i128 << s)),
                None => {
                    let ub = no_wrap && !wraps(ex, reading);
                    let what = "`shl nsw` by a variable";
                    let tried =
                        super::nonlinear::shl(ex, st.clone(), dst, width, reading, ub, &a, &b);
                    nonlinear_or_cut(ex, st, dst, width, reading, ub, tried, what)
                }
            }
        }
        BinOp::LShr | BinOp::AShr => match shift_amount(ex, &st, &b, width)? {
            Some(s) => floor_div(ex, st, dst, width, reading, &a, 1i128 << s, false),
            None => {
                let bound = upper_same_sign(ex, &st, &a, reading);
                unconstrained(ex, st, dst, width, reading, &bound)
            }
        },
        BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem => {
            let rem = matches!(op, BinOp::URem | BinOp::SRem);
            match b.as_constant() {
                Some(c) if c > 0 => floor_div(ex, st, dst, width, reading, &a, c, rem),
                _ => division_by_variable(ex, st, dst, width, reading, &a, &b, rem),
            }
        }
        BinOp::And | BinOp::Or | BinOp::Xor => bitwise(ex, st, op, dst, width, &a, &b),
    }
}

/// Whether a signed overflow of this operation wraps (mathematical integers never overflow).
fn wraps(ex: &Exec, reading: Reading) -> bool {
    ex.sem.signed_wrap || ex.sem.math_int || reading == Reading::Unsigned
}

/// Both operands literal: the exact result, or `Err` for undefined behaviour; `None` when
/// the symbolic rules should decide (never for literals, but keeps the cases in one place).
fn fold(
    ex: &Exec,
    op: BinOp,
    flags: ArithFlags,
    width: u32,
    reading: Reading,
    x: i128,
    y: i128,
) -> Option<Result<i128, &'static str>> {
    if ex.sem.math_int {
        return None;
    }
    let m = 1i128 << width;
    let (lo, hi) = range(width, reading);
    let norm = |v: i128| {
        let u = v.rem_euclid(m);
        if reading == Reading::Signed && u > smax(width) {
            u - m
        } else {
            u
        }
    };
    let overflow_ub = |v: i128| (flags.nsw() || flags.nuw()) && !(lo..=hi).contains(&v);
    let checked = |v: i128| {
        if overflow_ub(v) && !(ex.sem.signed_wrap && flags.nsw()) {
            Err("signed overflow")
        } else {
            Ok(norm(v))
        }
    };
    Some(match op {
        BinOp::Add => checked(x + y),
        BinOp::Sub => checked(x - y),
        BinOp::Mul => checked(x.checked_mul(y)?),
        BinOp::Shl if (0..width as i128).contains(&y) => checked(x.checked_mul(1i128 << y)?),
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            if !(0..width as i128).contains(&y) {
                Err("shift by at least the bit width")
            } else {
                Ok(norm(x.div_euclid(1i128 << y)))
            }
        }
        BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem => {
            if y == 0 {
                Err("division by zero")
            } else if reading == Reading::Signed && x == smin(width) && y == -1 {
                Err("signed division overflow")
            } else {
                // Rust's `/` and `%` truncate toward zero, as C and LLVM do.
                Ok(if matches!(op, BinOp::URem | BinOp::SRem) {
                    x % y
                } else {
                    norm(x / y)
                })
            }
        }
        BinOp::And => Ok(norm(x & y)),
        BinOp::Or => Ok(norm(x | y)),
        BinOp::Xor => Ok(norm(x ^ y)),
    })
}

/// [B] §3.2: the unsigned add refinement (split on `s ≤ umax`) and the signed one (three
/// cases); the overflow cases wrap by `∓2ⁿ`, or are ERR for `nsw`/`nuw`.
fn add_sub(
    ex: &mut Exec,
    st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    no_wrap: bool,
    s: Poly,
) -> R<Vec<State>> {
    if ex.sem.math_int {
        return finish(ex, st, dst, width, reading, vec![(vec![], Res::Val(s))]);
    }
    let (lo, hi) = range(width, reading);
    let m = 1i128 << width;
    let ub = no_wrap && !(ex.sem.signed_wrap && reading == Reading::Signed);
    let over = |wrapped: Poly| {
        if ub {
            Res::Err(if reading == Reading::Signed {
                "signed overflow (`nsw`)"
            } else {
                "unsigned overflow (`nuw`)"
            })
        } else {
            Res::Val(wrapped)
        }
    };
    let cases = vec![
        (within(&s, lo, hi), Res::Val(s.clone())),
        (vec![ge_c(&s, hi + 1)], over(s.sub(&Poly::constant(m)))),
        (vec![le_c(&s, lo - 1)], over(s.add(&Poly::constant(m)))),
    ];
    finish(ex, st, dst, width, reading, cases)
}

/// [B] §3.3: `v = s` when `s` is entailed in range, else `v = s − k·2ⁿ` with `k` fresh
/// (`nsw`: an overflow that is not excluded is ERR).
fn modulo(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    no_wrap: bool,
    s: Poly,
) -> R<Vec<State>> {
    if ex.sem.math_int {
        ex.bind(&mut st, dst, s, width, reading);
        return Ok(vec![st]);
    }
    let (lo, hi) = range(width, reading);
    let in_range = within(&s, lo, hi);
    if in_range.iter().all(|a| ex.kb.entails(&st.kb, a)) {
        ex.bind(&mut st, dst, s, width, reading);
        return Ok(vec![st]);
    }
    if no_wrap && !(ex.sem.signed_wrap && reading == Reading::Signed) {
        if ex.ub_ends_run {
            let what = "multiplication or shift overflow (`nsw`/`nuw`)";
            let cases = vec![
                (in_range, Res::Val(s.clone())),
                (vec![ge_c(&s, hi + 1)], Res::Err(what)),
                (vec![le_c(&s, lo - 1)], Res::Err(what)),
            ];
            return finish(ex, st, dst, width, reading, cases);
        }
        return Err(ex.err(
            &st,
            "multiplication or shift overflow (`nsw`/`nuw`) not excluded",
        ));
    }
    if let Some(c) = s.as_constant() {
        let v = crate::state::convert_const(c, width, reading);
        ex.bind(&mut st, dst, Poly::constant(v), width, reading);
        return Ok(vec![st]);
    }
    let v = ex.fresh(&mut st, width, reading);
    let k = ex.fresh_int();
    let wrapped = s.sub(&Poly::var(k).scale(1i128 << width));
    st.kb.push(eq(&Poly::var(v), &wrapped));
    ex.bind(&mut st, dst, Poly::var(v), width, reading);
    Ok(vec![st])
}

/// A shift amount: a literal below the width, `None` for a variable proved below the width;
/// ERR when the amount may reach the width (poison in LLVM, undefined in C).
fn shift_amount(ex: &mut Exec, st: &State, b: &Poly, width: u32) -> R<Option<u32>> {
    if let Some(c) = b.as_constant() {
        if (0..width as i128).contains(&c) {
            return Ok(Some(c as u32));
        }
        return Err(ex.err(st, "shift by at least the bit width"));
    }
    let ok = within(b, 0, width as i128 - 1);
    if ok.iter().all(|a| ex.kb.entails(&st.kb, a)) {
        Ok(None)
    } else {
        Err(ex.err(st, "shift amount not proved below the bit width"))
    }
}

/// Floor division by a positive literal `c` (udiv, lshr, ashr; sdiv/srem through the sign
/// cases, since they truncate toward zero): `c·q ≤ a ≤ c·q + c − 1` for `a ≥ 0` or floor
/// semantics, `c·q − c + 1 ≤ a ≤ c·q` for truncation of a negative `a`. `rem` binds `a − c·q`.
#[allow(clippy::too_many_arguments)]
fn floor_div(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    a: &Poly,
    c: i128,
    rem: bool,
) -> R<Vec<State>> {
    let f = st.top().func;
    let body = ex.module.func(f).body.as_ref().expect("body");
    let inst = &body.blocks[st.top().block.0 as usize].insts[st.top().idx];
    let truncating = matches!(
        inst,
        symex_ir::Inst::Bin {
            op: BinOp::SDiv | BinOp::SRem,
            ..
        }
    );
    let q = ex.fresh(&mut st, width, reading);
    let qp = Poly::var(q);
    let cq = qp.scale(c);
    let floor = vec![ge(a, &cq), ge(&cq.add(&Poly::constant(c - 1)), a)];
    let trunc_neg = vec![ge(a, &cq.sub(&Poly::constant(c - 1))), ge(&cq, a)];
    // The sign cases only decide which bracket defines `q`; the bracket is added after the
    // split (a refinement drops an entailed case condition, never a definition).
    let cases = if truncating {
        vec![(vec![ge_c(a, 0)], floor), (vec![le_c(a, -1)], trunc_neg)]
    } else {
        vec![(vec![], floor)]
    };
    let mut out = Vec::new();
    for (mut s, bracket) in ex.split(st, cases) {
        s.kb.extend(bracket);
        let v = if rem { a.sub(&cq) } else { qp.clone() };
        ex.bind(&mut s, dst, v, width, reading);
        out.push(s);
    }
    Ok(out)
}

/// Division by a variable: ERR unless the divisor is provably non-zero (and, signed, not
/// `smin / −1`); the quotient or remainder then gets its range and sign facts, and for a
/// non-negative dividend and a positive divisor `b ≥ ℓ`: `ℓ·q ≤ a` (as `q·b ≤ a`) and
/// `r ≤ b − 1`.
#[allow(clippy::too_many_arguments)]
fn division_by_variable(
    ex: &mut Exec,
    st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    a: &Poly,
    b: &Poly,
    rem: bool,
) -> R<Vec<State>> {
    let nonzero = Atom {
        poly: b.clone(),
        rel: Rel::Ne,
    };
    if !ex.kb.entails(&st.kb, &nonzero) {
        return Err(ex.err(&st, "division by zero not excluded"));
    }
    if reading == Reading::Signed && !ex.sem.math_int {
        let t = crate::kb::term(&eq(a, &Poly::constant(smin(width))))
            .and(&crate::kb::term(&eq(b, &Poly::constant(-1))))
            .not();
        if !ex.kb.entails_term(&st.kb, &t) {
            return Err(ex.err(&st, "signed division overflow (smin / -1) not excluded"));
        }
    }
    let bound = upper_same_sign(ex, &st, a, reading);
    let positive = !ex.sem.math_int
        && !bound.is_empty()
        && (reading == Reading::Unsigned || ex.kb.entails(&st.kb, &ge_c(b, 1)));
    if !positive {
        return unconstrained(ex, st, dst, width, reading, &bound);
    }
    let (lb, _) = super::nonlinear::bounds(ex, &st, b, width, reading);
    let mut out = unconstrained(ex, st, dst, width, reading, &bound)?;
    for s in &mut out {
        let f = s.top().func;
        let Some(v) = s.top().regs.get(&dst).copied() else {
            continue;
        };
        if ex.class.reading(f, dst) != reading {
            // The result was converted to the other reading: keep the plain facts.
            continue;
        }
        let vp = v.poly();
        if rem {
            s.kb.push(ge(&b.sub(&Poly::constant(1)), &vp));
        } else if lb >= 2 {
            s.kb.push(ge(a, &vp.scale(lb)));
        }
    }
    Ok(out)
}

/// For an unsigned or provably non-negative dividend: the result is at most it.
fn upper_same_sign(ex: &mut Exec, st: &State, a: &Poly, reading: Reading) -> Vec<Poly> {
    if ex.sem.math_int {
        return vec![];
    }
    if reading == Reading::Unsigned || ex.kb.entails(&st.kb, &ge_c(a, 0)) {
        vec![a.clone()]
    } else {
        vec![]
    }
}

/// A fresh value of the range, at least 0 and at most each of `upper` when given.
/// The nonlinear rule's successors; when it found the overflow of a no-wrap product not excluded
/// (`ERR`) and `symex cost` lets undefined behaviour end a run, [`overflow_not_excluded`]'s two.
#[allow(clippy::too_many_arguments)]
fn nonlinear_or_cut(
    ex: &mut Exec,
    st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    ub: bool,
    tried: R<Vec<State>>,
    what: &str,
) -> R<Vec<State>> {
    match tried {
        Err(Outcome::Err(_)) if ub && ex.ub_ends_run => {
            overflow_not_excluded(ex, st, dst, width, reading, what)
        }
        r => r,
    }
}

/// A no-wrap operation whose overflow the linear model can neither exclude nor describe:
/// ERR, or under `ub_ends_run` two successors — the run that ends at the overflow, and one
/// that goes on with a fresh value of the type (the exact product is not linear).
fn overflow_not_excluded(
    ex: &mut Exec,
    st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    what: &str,
) -> R<Vec<State>> {
    if !ex.ub_ends_run {
        return Err(ex.err(&st, &format!("{what}: overflow not excluded")));
    }
    let mut cut = st.clone();
    cut.halted = true;
    let at = format!("{}: {what} may overflow", ex.here(&st));
    ex.ub_cut.push(at);
    let mut out = unconstrained(ex, st, dst, width, reading, &[])?;
    out.push(cut);
    Ok(out)
}

fn unconstrained(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    upper: &[Poly],
) -> R<Vec<State>> {
    let v = ex.fresh(&mut st, width, reading);
    let vp = Poly::var(v);
    for u in upper {
        st.kb.push(ge_c(&vp, 0));
        st.kb.push(ge(u, &vp));
    }
    ex.bind(&mut st, dst, vp, width, reading);
    Ok(vec![st])
}

/// [B] §3.4 on the unsigned readings: `and` is at most each operand (an `and` with a
/// low-bit mask `2ᵏ−1` is exactly `urem 2ᵏ`); `or` at least each; `xor` with all ones is
/// `umax − a`. On `i1` the booleans are exact: `and`/`or` as linear bounds, `xor` by cases.
fn bitwise(
    ex: &mut Exec,
    mut st: State,
    op: BinOp,
    dst: Slot,
    width: u32,
    a: &Poly,
    b: &Poly,
) -> R<Vec<State>> {
    let u = Reading::Unsigned;
    let (a, b) = match (a.as_constant(), b.as_constant()) {
        (Some(_), None) => (b.clone(), a.clone()),
        _ => (a.clone(), b.clone()),
    };
    let one = Poly::constant(1);
    if width == 1 {
        let v = ex.fresh(&mut st, 1, u);
        let vp = Poly::var(v);
        match op {
            BinOp::And => st
                .kb
                .extend([ge(&a, &vp), ge(&b, &vp), ge(&vp, &a.add(&b).sub(&one))]),
            BinOp::Or => st
                .kb
                .extend([ge(&vp, &a), ge(&vp, &b), ge(&a.add(&b), &vp)]),
            _ => {
                let cases = vec![
                    (vec![eq(&a, &Poly::constant(0))], b.clone()),
                    (vec![eq(&a, &one)], one.sub(&b)),
                ];
                let mut out = Vec::new();
                for (mut s, val) in ex.split(st, cases) {
                    ex.bind(&mut s, dst, val, 1, u);
                    out.push(s);
                }
                return Ok(out);
            }
        }
        ex.bind(&mut st, dst, vp, 1, u);
        return Ok(vec![st]);
    }
    if ex.sem.math_int {
        return unconstrained(ex, st, dst, width, u, &[]);
    }
    let mask = b.as_constant();
    match op {
        BinOp::And => {
            if let Some(c) = mask.filter(|c| c & (c + 1) == 0 && *c > 0) {
                return floor_div_rem_mask(ex, st, dst, width, &a, c + 1);
            }
            unconstrained(ex, st, dst, width, u, &[a, b])
        }
        BinOp::Or => {
            let v = ex.fresh(&mut st, width, u);
            let vp = Poly::var(v);
            // `a | b ≤ a + b` (no bit is counted twice).
            st.kb
                .extend([ge(&vp, &a), ge(&vp, &b), ge(&a.add(&b), &vp)]);
            if sign_bits_clear(ex, &st, &a, &b, width) {
                st.kb.push(le_c(&vp, smax(width)));
            }
            ex.bind(&mut st, dst, vp, width, u);
            Ok(vec![st])
        }
        _ => {
            if mask == Some(umax(width)) {
                ex.bind(&mut st, dst, Poly::constant(umax(width)).sub(&a), width, u);
                return Ok(vec![st]);
            }
            if sign_bits_clear(ex, &st, &a, &b, width) {
                // Non-negative operands (in the signed reading) give a non-negative xor.
                let v = ex.fresh(&mut st, width, u);
                st.kb.push(le_c(&Poly::var(v), smax(width)));
                ex.bind(&mut st, dst, Poly::var(v), width, u);
                return Ok(vec![st]);
            }
            unconstrained(ex, st, dst, width, u, &[])
        }
    }
}

/// Whether both unsigned operands are entailed `≤ smax` (their sign bits are clear, and so
/// is the sign bit of their `or` and `xor`).
fn sign_bits_clear(ex: &mut Exec, st: &State, a: &Poly, b: &Poly, width: u32) -> bool {
    [a, b]
        .iter()
        .all(|p| ex.kb.entails(&st.kb, &le_c(p, smax(width))))
}

/// `a & (m − 1)` for a power of two `m`: `a − m·q` with `m·q ≤ a ≤ m·q + m − 1`.
fn floor_div_rem_mask(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    width: u32,
    a: &Poly,
    m: i128,
) -> R<Vec<State>> {
    let q = ex.fresh(&mut st, width, Reading::Unsigned);
    let mq = Poly::var(q).scale(m);
    st.kb.push(ge(a, &mq));
    st.kb.push(ge(&mq.add(&Poly::constant(m - 1)), a));
    ex.bind(&mut st, dst, a.sub(&mq), width, Reading::Unsigned);
    Ok(vec![st])
}

/// Whether no run reads `dst` from `st` on: every use of it is later in the current block
/// and is an arm of a `select` whose condition is already a literal in `st` that picks the
/// other arm, or an operand of an arithmetic, comparison or cast instruction whose own
/// result is not read either (LLVM's speculated arithmetic; a division is never speculated,
/// it may trap).
fn unselected(ex: &Exec, st: &State, dst: Slot) -> bool {
    let frame = st.top();
    let Some(body) = &ex.module.func(frame.func).body else {
        return false;
    };
    unread(&body.blocks, st, frame.idx + 1, dst, 0)
}

fn unread(blocks: &[symex_ir::Block], st: &State, from: usize, dst: Slot, depth: u32) -> bool {
    use symex_ir::Inst;
    let frame = st.top();
    let total = symex_ir::uses::slot_uses(blocks, dst);
    let me = Operand::Slot(dst);
    let insts = &blocks[frame.block.0 as usize].insts;
    let mut skipped = 0;
    for (k, inst) in insts.iter().enumerate().skip(from) {
        let mut n = 0;
        symex_ir::uses::inst_operands(inst, &mut |o| n += usize::from(*o == me));
        if n == 0 {
            continue;
        }
        let ok = match inst {
            Inst::Select {
                cond,
                on_true,
                on_false,
                ..
            } if *cond != me && (*on_true == me) != (*on_false == me) => match cond {
                Operand::Slot(c) => match frame.regs.get(c) {
                    Some(crate::state::Val::Const(v)) => (*v != 0) != (*on_true == me),
                    _ => false,
                },
                Operand::Const(_) => false,
            },
            Inst::Bin { op, dst: d, .. }
                if !matches!(op, BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem) =>
            {
                depth < 8 && unread(blocks, st, k + 1, *d, depth + 1)
            }
            Inst::ICmp { dst: d, .. } | Inst::Cast { dst: d, .. } => {
                depth < 8 && unread(blocks, st, k + 1, *d, depth + 1)
            }
            _ => false,
        };
        if !ok {
            return false;
        }
        skipped += n;
    }
    total > 0 && skipped == total
}
