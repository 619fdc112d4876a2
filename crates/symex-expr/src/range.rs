//! Unsigned ranges of bit-vector terms: a sound interval `[lo, hi]` containing every value a term
//! takes, computed from its shape alone (constants, extensions, masks, shifts, sums that cannot
//! wrap, `ite`). Used to decide comparisons that hold for every value (the bounds check of an access
//! at a masked or extended index), so that they never reach the solver.

use crate::bvsem::mask;
use crate::term::{Op, Term};

/// How deep into a term the analysis looks; below that a term may take any value.
const DEPTH: u32 = 8;

/// The unsigned interval of the bit-vector term `t`.
pub fn unsigned(t: &Term) -> (u128, u128) {
    bounds(t, DEPTH)
}

fn bounds(t: &Term, depth: u32) -> (u128, u128) {
    let w = t.width();
    let full = (0, mask(w));
    if let Some(c) = t.as_bv() {
        return (c, c);
    }
    if depth == 0 {
        return full;
    }
    let d = depth - 1;
    match t.op() {
        Op::ZeroExt(_) => bounds(t.arg(0), d),
        Op::Concat => {
            let (h, l) = (t.arg(0), t.arg(1));
            let lw = l.width();
            let (hlo, hhi) = bounds(h, d);
            let (llo, lhi) = bounds(l, d);
            ((hlo << lw) | llo, (hhi << lw) | lhi)
        }
        Op::Extract { hi, lo } => {
            let (xlo, xhi) = bounds(t.arg(0), d);
            // The extraction keeps the interval when no bit above `hi` varies.
            let width = hi - lo + 1;
            let above = hi + 1;
            let same_top = above >= t.arg(0).width() || (xlo >> above) == (xhi >> above);
            if same_top && (xhi >> lo) - (xlo >> lo) <= mask(width) {
                let (l, h) = ((xlo >> lo) & mask(width), (xhi >> lo) & mask(width));
                if l <= h {
                    return (l, h);
                }
            }
            full
        }
        Op::BvAnd => {
            let (alo, ahi) = bounds(t.arg(0), d);
            let (blo, bhi) = bounds(t.arg(1), d);
            // A mask of the low bits is an extraction: it keeps the interval when no bit above them
            // varies (a pointer's offset, `address & (2^k - 1)`, of an object at a known address).
            for ((xlo, xhi), m) in [((alo, ahi), t.arg(1)), ((blo, bhi), t.arg(0))] {
                if let Some(k) = m.as_bv().and_then(low_mask_bits) {
                    if k >= 128 || xlo >> k == xhi >> k {
                        let m = mask(k.min(128));
                        return (xlo & m, xhi & m);
                    }
                }
            }
            // x & y ≤ min(x, y).
            (0, ahi.min(bhi))
        }
        Op::BvOr => {
            let (alo, ahi) = bounds(t.arg(0), d);
            let (blo, bhi) = bounds(t.arg(1), d);
            // x | y ≥ max(x, y), and it has no bit above the highest bit either may have.
            let top = ahi.max(bhi);
            let hi = if top == 0 {
                0
            } else {
                mask(128 - top.leading_zeros())
            };
            (alo.max(blo), hi.min(mask(w)))
        }
        Op::BvLshr => match t.arg(1).as_bv() {
            Some(k) if k < u128::from(w) => {
                let (lo, hi) = bounds(t.arg(0), d);
                (lo >> k, hi >> k)
            }
            _ => full,
        },
        Op::BvUrem => match t.arg(1).as_bv() {
            Some(k) if k > 0 => {
                let (lo, hi) = bounds(t.arg(0), d);
                if hi < k {
                    (lo, hi)
                } else {
                    (0, k - 1)
                }
            }
            _ => full,
        },
        Op::BvUdiv => match t.arg(1).as_bv() {
            Some(k) if k > 0 => {
                let (lo, hi) = bounds(t.arg(0), d);
                (lo / k, hi / k)
            }
            _ => full,
        },
        Op::BvAdd => {
            let (alo, ahi) = bounds(t.arg(0), d);
            let (blo, bhi) = bounds(t.arg(1), d);
            match ahi.checked_add(bhi) {
                Some(hi) if hi <= mask(w) => (alo + blo, hi),
                _ => full,
            }
        }
        Op::Ite => {
            let (alo, ahi) = bounds(t.arg(1), d);
            let (blo, bhi) = bounds(t.arg(2), d);
            (alo.min(blo), ahi.max(bhi))
        }
        _ => full,
    }
}

/// `Some(k)` when `m` is `2^k - 1` (the low `k` bits set, no other).
fn low_mask_bits(m: u128) -> Option<u32> {
    let k = 128 - m.leading_zeros();
    (m == mask(k)).then_some(k)
}
