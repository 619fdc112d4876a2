//! Exact SMT-LIB semantics of the bit-vector operators on `u128` words.
//!
//! Every function takes operands already reduced to `width` bits and returns a result
//! reduced to its width. Constant folding and evaluation both use these, so a rewrite and
//! the evaluator can never disagree about what an operator means.

/// All ones in `width` bits.
pub fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The two's-complement reading of `v` as a signed `width`-bit number.
pub fn to_signed(v: u128, width: u32) -> i128 {
    let shift = 128 - width;
    ((v << shift) as i128) >> shift
}

/// `v` reduced to `width` bits (two's complement for negative numbers).
pub fn from_signed(v: i128, width: u32) -> u128 {
    (v as u128) & mask(width)
}

/// Whether the sign bit is set.
pub fn is_negative(v: u128, width: u32) -> bool {
    (v >> (width - 1)) & 1 == 1
}

pub fn neg(a: u128, w: u32) -> u128 {
    a.wrapping_neg() & mask(w)
}

pub fn add(a: u128, b: u128, w: u32) -> u128 {
    a.wrapping_add(b) & mask(w)
}

pub fn sub(a: u128, b: u128, w: u32) -> u128 {
    a.wrapping_sub(b) & mask(w)
}

pub fn mul(a: u128, b: u128, w: u32) -> u128 {
    a.wrapping_mul(b) & mask(w)
}

/// `bvudiv`: division by zero gives all ones.
pub fn udiv(a: u128, b: u128, w: u32) -> u128 {
    a.checked_div(b).unwrap_or(mask(w))
}

/// `bvurem`: remainder by zero gives the dividend.
pub fn urem(a: u128, b: u128, _w: u32) -> u128 {
    a.checked_rem(b).unwrap_or(a)
}

fn abs(a: u128, w: u32) -> u128 {
    if is_negative(a, w) {
        neg(a, w)
    } else {
        a
    }
}

/// `bvsdiv`, by its SMT-LIB definition through `bvudiv` on absolute values.
pub fn sdiv(a: u128, b: u128, w: u32) -> u128 {
    let q = udiv(abs(a, w), abs(b, w), w);
    if is_negative(a, w) != is_negative(b, w) {
        neg(q, w)
    } else {
        q
    }
}

/// `bvsrem`: the sign follows the dividend.
pub fn srem(a: u128, b: u128, w: u32) -> u128 {
    let r = urem(abs(a, w), abs(b, w), w);
    if is_negative(a, w) {
        neg(r, w)
    } else {
        r
    }
}

/// `bvsmod`: the sign follows the divisor.
pub fn smod(a: u128, b: u128, w: u32) -> u128 {
    let u = urem(abs(a, w), abs(b, w), w);
    if u == 0 {
        return u;
    }
    match (is_negative(a, w), is_negative(b, w)) {
        (false, false) => u,
        (true, false) => add(neg(u, w), b, w),
        (false, true) => add(u, b, w),
        (true, true) => neg(u, w),
    }
}

pub fn shl(a: u128, b: u128, w: u32) -> u128 {
    if b >= u128::from(w) {
        0
    } else {
        (a << b) & mask(w)
    }
}

pub fn lshr(a: u128, b: u128, w: u32) -> u128 {
    if b >= u128::from(w) {
        0
    } else {
        a >> b
    }
}

pub fn ashr(a: u128, b: u128, w: u32) -> u128 {
    if b >= u128::from(w) {
        if is_negative(a, w) {
            mask(w)
        } else {
            0
        }
    } else {
        from_signed(to_signed(a, w) >> b, w)
    }
}

pub fn slt(a: u128, b: u128, w: u32) -> bool {
    to_signed(a, w) < to_signed(b, w)
}

pub fn sle(a: u128, b: u128, w: u32) -> bool {
    to_signed(a, w) <= to_signed(b, w)
}

/// `concat`: `hi` above `lo`, where `lo` has `lo_width` bits.
pub fn concat(hi: u128, lo: u128, lo_width: u32) -> u128 {
    if lo_width >= 128 {
        lo
    } else {
        (hi << lo_width) | lo
    }
}

/// `(_ extract hi lo)`.
pub fn extract(a: u128, hi: u32, lo: u32) -> u128 {
    (a >> lo) & mask(hi - lo + 1)
}

/// `(_ sign_extend n)` of a `w`-bit value.
pub fn sext(a: u128, w: u32, n: u32) -> u128 {
    from_signed(to_signed(a, w), w + n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_zero_follows_smtlib() {
        assert_eq!(udiv(5, 0, 8), 0xff);
        assert_eq!(urem(5, 0, 8), 5);
        assert_eq!(sdiv(from_signed(-4, 8), 0, 8), 1);
        assert_eq!(sdiv(4, 0, 8), 0xff);
        assert_eq!(srem(from_signed(-4, 8), 0, 8), from_signed(-4, 8));
        assert_eq!(smod(from_signed(-4, 8), 0, 8), from_signed(-4, 8));
    }

    #[test]
    fn signed_remainders_follow_their_operand() {
        let m7 = from_signed(-7, 8);
        assert_eq!(srem(m7, 2, 8), from_signed(-1, 8));
        assert_eq!(smod(m7, 2, 8), 1);
        assert_eq!(smod(7, from_signed(-2, 8), 8), from_signed(-1, 8));
        assert_eq!(sdiv(m7, 2, 8), from_signed(-3, 8));
    }

    #[test]
    fn full_width_words() {
        assert_eq!(mask(128), u128::MAX);
        assert_eq!(ashr(1u128 << 127, 127, 128), u128::MAX);
        assert_eq!(sext(0x80, 8, 120), !0x7fu128);
        assert_eq!(concat(1, 0, 64), 1u128 << 64);
    }
}
