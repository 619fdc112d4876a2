//! Products the linear KB cannot state exactly ([B] §3.3): `mul` of two variables and `shl`
//! by a variable. The rules of the paper work from entailed bounds of the operands,
//! `t1 ∈ [ℓ1, u1]`, `t2 ∈ [ℓ2, u2]`, and the corner products `lb ≤ t1·t2 ≤ ub`:
//!
//! * no wrap possible (`[lb, ub]` inside the type's range): `v = t1·t2`, stated by the range
//!   `v ∈ [lb, ub]` and the McCormick envelope, four linear bounds that hold for every
//!   product of integers in the boxes (`(t1 − ℓ1)·(t2 − ℓ2) ≥ 0` gives
//!   `v ≥ ℓ1·t2 + ℓ2·t1 − ℓ1·ℓ2`, …); a square also gets `v ≥ t` and `v ≥ −t`;
//! * a wrap possible: `nsw` (undefined behaviour) is `ERR`; otherwise `v = uns_n(t1·t2)`
//!   (or `sig_n`) is only known to lie in `[uns(lb), uns(ub)]` when that is an interval, else
//!   in the two ends `[min, uns(ub)] ∪ [uns(lb), max]`, the paper's `inBounds` (Thm 6),
//!   stated with a fresh `k ∈ {0, 1}`: `ℓ' ≤ v + k·2ⁿ ≤ u' + 2ⁿ`; nothing when
//!   `ub − lb + 1 ≥ 2ⁿ`.
//!
//! `t1 << t2` (with `t2` proved below the width) is `t1·m` for a fresh `m = 2^t2`, known by
//! `2^ℓ2 ≤ m ≤ 2^u2`, `m ≥ t2 + 1` and `m ≥ 2·t2`.

use super::{range, within, Exec, R};
use crate::state::{ge, ge_c, le_c, Reading, State};
use symex_ir::Slot;
use symex_its::{Atom, Poly};

/// An operand with its entailed bounds.
pub struct Bounded<'a> {
    pub poly: &'a Poly,
    pub lo: i128,
    pub hi: i128,
}

/// Entailed bounds of `p` within its type's range: a model gives a value, and a binary search
/// over thresholds (powers of two, their predecessors, the range ends) finds the tightest
/// entailed ones among them (entailment of `p ≤ c` is monotone in `c`).
pub fn bounds(ex: &mut Exec, st: &State, p: &Poly, width: u32, reading: Reading) -> (i128, i128) {
    let (lo, hi) = range(width, reading);
    if let Some(c) = p.as_constant() {
        return (c, c);
    }
    let Some(model) = ex.kb.model(&st.kb, &[], ex.nvars) else {
        return (lo, hi);
    };
    let Some(m) = p.eval(&model) else {
        return (lo, hi);
    };
    let mut marks: Vec<i128> = vec![lo, hi, 0, -1];
    for k in 0..=width {
        let pk = 1i128 << k;
        marks.extend([pk, pk - 1, -pk, 1 - pk]);
    }
    marks.retain(|c| (lo..=hi).contains(c));
    marks.sort_unstable();
    marks.dedup();
    // Upper: the smallest mark ≥ m with `p ≤ mark` entailed (`hi` always is).
    let ups: Vec<i128> = marks.iter().copied().filter(|c| *c >= m).collect();
    let upper = search(&ups, |c| ex.kb.entails(&st.kb, &le_c(p, c)));
    let mut downs: Vec<i128> = marks.iter().copied().filter(|c| *c <= m).collect();
    downs.reverse();
    let lower = search(&downs, |c| ex.kb.entails(&st.kb, &ge_c(p, c)));
    (lower.unwrap_or(lo), upper.unwrap_or(hi))
}

/// The first element of `cands` for which `ok` holds, where `ok` is monotone (false…true);
/// the last element is assumed to hold (a range end).
fn search(cands: &[i128], mut ok: impl FnMut(i128) -> bool) -> Option<i128> {
    if cands.is_empty() {
        return None;
    }
    let (mut a, mut b) = (0, cands.len() - 1);
    while a < b {
        let mid = (a + b) / 2;
        if ok(cands[mid]) {
            b = mid;
        } else {
            a = mid + 1;
        }
    }
    Some(cands[a])
}

/// `v = t1 · t2` for two non-literal operands.
#[allow(clippy::too_many_arguments)]
pub fn mul(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    ub: bool,
    a: &Poly,
    b: &Poly,
) -> R<Vec<State>> {
    if ex.sem.math_int {
        // No ranges over ℤ: only what every integer product satisfies.
        let v = ex.fresh(&mut st, width, reading);
        if a == b {
            square_facts(&mut st, &Poly::var(v), a);
        }
        ex.bind(&mut st, dst, Poly::var(v), width, reading);
        return Ok(vec![st]);
    }
    let (la, ua) = bounds(ex, &st, a, width, reading);
    let (lb, ubb) = bounds(ex, &st, b, width, reading);
    let x = Bounded {
        poly: a,
        lo: la,
        hi: ua,
    };
    let y = Bounded {
        poly: b,
        lo: lb,
        hi: ubb,
    };
    product(ex, st, dst, width, reading, ub, &x, &y)
}

/// `v = t1 << t2` for a variable `t2` (already proved in `[0, n − 1]`).
#[allow(clippy::too_many_arguments)]
pub fn shl(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    ub: bool,
    a: &Poly,
    b: &Poly,
) -> R<Vec<State>> {
    if ex.sem.math_int {
        let v = ex.fresh(&mut st, width, reading);
        ex.bind(&mut st, dst, Poly::var(v), width, reading);
        return Ok(vec![st]);
    }
    let (ls, us) = bounds(ex, &st, b, width, Reading::Unsigned);
    let (ls, us) = (ls.max(0), us.min(width as i128 - 1));
    let m = Poly::var(ex.fresh_int());
    st.kb.extend(within(&m, 1i128 << ls, 1i128 << us));
    st.kb.push(ge(&m, &b.add(&Poly::constant(1))));
    st.kb.push(ge(&m, &b.scale(2)));
    let (la, ua) = bounds(ex, &st, a, width, reading);
    let x = Bounded {
        poly: a,
        lo: la,
        hi: ua,
    };
    let y = Bounded {
        poly: &m,
        lo: 1i128 << ls,
        hi: 1i128 << us,
    };
    product(ex, st, dst, width, reading, ub, &x, &y)
}

/// The product rules of the module comment.
#[allow(clippy::too_many_arguments)]
fn product(
    ex: &mut Exec,
    mut st: State,
    dst: Slot,
    width: u32,
    reading: Reading,
    ub: bool,
    x: &Bounded,
    y: &Bounded,
) -> R<Vec<State>> {
    let (lo, hi) = range(width, reading);
    let corners =
        [(x.lo, y.lo), (x.lo, y.hi), (x.hi, y.lo), (x.hi, y.hi)].map(|(p, q)| p.checked_mul(q));
    let Some(corners) = corners.into_iter().collect::<Option<Vec<i128>>>() else {
        // 64-bit operands whose product leaves i128: no facts.
        if ub {
            return Err(ex.err(&st, "multiplication overflow (`nsw`) not excluded"));
        }
        let v = ex.fresh(&mut st, width, reading);
        ex.bind(&mut st, dst, Poly::var(v), width, reading);
        return Ok(vec![st]);
    };
    let (mut plo, phi) = (
        *corners.iter().min().expect("four"),
        *corners.iter().max().expect("four"),
    );
    let square = x.poly == y.poly;
    if square {
        plo = if x.lo <= 0 && x.hi >= 0 {
            0
        } else {
            (x.lo * x.lo).min(x.hi * x.hi)
        };
    }
    let v = ex.fresh(&mut st, width, reading);
    let vp = Poly::var(v);
    if plo >= lo && phi <= hi {
        st.kb.extend(within(&vp, plo, phi));
        st.kb.extend(mccormick(&vp, x, y));
        if square {
            square_facts(&mut st, &vp, x.poly);
        }
    } else if ub {
        return Err(ex.err(
            &st,
            "multiplication or shift overflow (`nsw`) not excluded by the operands' bounds",
        ));
    } else if phi - plo < (1i128 << width) - 1 {
        let to = |c: i128| crate::state::convert_const(c, width, reading);
        let (l, u) = (to(plo), to(phi));
        if l <= u {
            st.kb.extend(within(&vp, l, u));
        } else {
            // inBounds(v, min, u, l, max): v ∈ [min, u] ∪ [l, max].
            let k = Poly::var(ex.fresh_int());
            st.kb.extend(within(&k, 0, 1));
            let w = vp.add(&k.scale(1i128 << width));
            st.kb.push(ge_c(&w, l));
            st.kb.push(le_c(&w, u + (1i128 << width)));
        }
    }
    ex.bind(&mut st, dst, vp, width, reading);
    Ok(vec![st])
}

/// The McCormick envelope of `v = x·y` over the boxes of `x` and `y` (exact for integers in
/// them: each is the expansion of a product of two non-negative differences).
fn mccormick(v: &Poly, x: &Bounded, y: &Bounded) -> Vec<Atom> {
    let env = |cx: i128, cy: i128| -> Poly {
        // cx·y + cy·x − cx·cy
        y.poly
            .scale(cx)
            .add(&x.poly.scale(cy))
            .sub(&Poly::constant(cx * cy))
    };
    vec![
        ge(v, &env(x.lo, y.lo)),
        ge(v, &env(x.hi, y.hi)),
        ge(&env(x.hi, y.lo), v),
        ge(&env(x.lo, y.hi), v),
    ]
}

/// `v = t·t` for integers: `v ≥ t` and `v ≥ −t` (so `v ≥ 0`).
fn square_facts(st: &mut State, v: &Poly, t: &Poly) {
    st.kb.push(ge(v, t));
    st.kb.push(ge(v, &t.scale(-1)));
}
