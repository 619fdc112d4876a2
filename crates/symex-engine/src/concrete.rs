//! The concrete domain: values are bit patterns in a `u128`, bytes are `u8`, decisions are read off the
//! values and inputs come from a test file, in order (missing inputs are zero).

use crate::domain::{
    BinOp, CastOp, CmpOp, Decision, Domain, InputRequest, OverflowOp, UnOp, Width,
};
use crate::testfile::TestInput;

/// The all-ones mask of each width from 0 to 128 bits. Every constant, arithmetic result and cast of
/// the concrete interpreter is masked: a load from here replaces a 128-bit shift by a variable amount
/// and its test (about nine machine instructions per mask).
static MASKS: [u128; 129] = {
    let mut m = [0u128; 129];
    let mut w = 1;
    while w <= 128 {
        m[w] = u128::MAX >> (128 - w);
        w += 1;
    }
    m
};

/// The all-ones mask of `w` bits (all 128 for any wider `w`).
#[inline(always)]
pub fn mask(w: Width) -> u128 {
    MASKS[(w as usize).min(128)]
}

/// `v` (of width `w`) sign-extended to 128 bits.
#[inline(always)]
pub fn sext(v: u128, w: Width) -> i128 {
    if (1..=64).contains(&w) {
        // Nearly every width: two 64-bit shifts, where a 128-bit shift by a variable amount is a
        // double shift, a test of the amount and selects.
        let sh = 64 - w;
        (((v as u64) << sh) as i64 >> sh) as i128
    } else if w >= 128 {
        v as i128
    } else {
        let sh = 128 - w;
        ((v << sh) as i128) >> sh
    }
}

/// Binary operation on `w`-bit patterns. Division by zero is decided before this is called; should it
/// happen anyway the result is 0 (a total function keeps the interpreter panic-free).
#[inline(always)]
pub fn binop(op: BinOp, w: Width, a: u128, b: u128) -> u128 {
    let m = mask(w);
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        // Shifts by at least the width are poison in LLVM (undefined in C); we fix them to what
        // x86 would not give but what is simplest to state: shifted-out bits are gone.
        BinOp::Shl => {
            if b >= w as u128 {
                0
            } else {
                a << b
            }
        }
        BinOp::LShr => {
            if b >= w as u128 {
                0
            } else {
                a >> b
            }
        }
        BinOp::AShr => {
            let s = sext(a, w);
            if b >= w as u128 {
                (s >> 127) as u128
            } else {
                (s >> b) as u128
            }
        }
        BinOp::UDiv => a.checked_div(b).unwrap_or(0),
        BinOp::URem => a.checked_rem(b).unwrap_or(0),
        // INT_MIN / -1 wraps (to INT_MIN, remainder 0): the overflow check reports it when enabled.
        BinOp::SDiv => sext(a, w)
            .checked_div(sext(b, w))
            .map_or_else(|| if b == 0 { 0 } else { a }, |v| v as u128),
        BinOp::SRem => sext(a, w).checked_rem(sext(b, w)).map_or(0, |v| v as u128),
        BinOp::UMin => a.min(b),
        BinOp::UMax => a.max(b),
        BinOp::SMin => {
            if sext(a, w) <= sext(b, w) {
                a
            } else {
                b
            }
        }
        BinOp::SMax => {
            if sext(a, w) >= sext(b, w) {
                a
            } else {
                b
            }
        }
    };
    r & m
}

/// Comparison of `w`-bit patterns.
#[inline(always)]
pub fn cmp(op: CmpOp, w: Width, a: u128, b: u128) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Ult => a < b,
        CmpOp::Ule => a <= b,
        CmpOp::Ugt => a > b,
        CmpOp::Uge => a >= b,
        CmpOp::Slt => sext(a, w) < sext(b, w),
        CmpOp::Sle => sext(a, w) <= sext(b, w),
        CmpOp::Sgt => sext(a, w) > sext(b, w),
        CmpOp::Sge => sext(a, w) >= sext(b, w),
    }
}

/// One-operand operation on a `w`-bit pattern.
pub fn unop(op: UnOp, w: Width, a: u128) -> u128 {
    let m = mask(w);
    let r = match op {
        UnOp::Not => !a,
        UnOp::Neg => a.wrapping_neg(),
        UnOp::Abs => sext(a, w).unsigned_abs(),
        UnOp::Ctpop => a.count_ones() as u128,
        UnOp::Ctlz => (a.leading_zeros() - (128 - w)) as u128,
        UnOp::Cttz => (a.trailing_zeros().min(w)) as u128,
        UnOp::Bswap => a.swap_bytes() >> (128 - w),
        UnOp::BitReverse => a.reverse_bits() >> (128 - w),
    };
    r & m
}

/// Width change.
#[inline(always)]
pub fn cast(op: CastOp, from: Width, to: Width, a: u128) -> u128 {
    match op {
        CastOp::Trunc | CastOp::ZExt => a & mask(to),
        CastOp::SExt => (sext(a, from) as u128) & mask(to),
    }
}

/// Whether `op` on `w`-bit `a`, `b` overflows.
pub fn overflows(op: OverflowOp, w: Width, a: u128, b: u128) -> bool {
    let (sa, sb) = (sext(a, w), sext(b, w));
    let (smin, smax) = if w >= 128 {
        (i128::MIN, i128::MAX)
    } else {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    };
    let m = mask(w);
    match op {
        OverflowOp::UAdd => a.checked_add(b).is_none_or(|r| r > m),
        OverflowOp::USub => a < b,
        OverflowOp::UMul => a.checked_mul(b).is_none_or(|r| r > m),
        OverflowOp::SAdd => sa.checked_add(sb).is_none_or(|r| r < smin || r > smax),
        OverflowOp::SSub => sa.checked_sub(sb).is_none_or(|r| r < smin || r > smax),
        OverflowOp::SMul => sa.checked_mul(sb).is_none_or(|r| r < smin || r > smax),
    }
}

/// `llvm.fshl` / `llvm.fshr` on `w`-bit patterns.
pub fn funnel_shift(left: bool, w: Width, a: u128, b: u128, s: u128) -> u128 {
    let s = (s % w as u128) as u32;
    if s == 0 {
        return if left { a } else { b };
    }
    let m = mask(w);
    if left {
        ((a << s) | (b >> (w - s))) & m
    } else {
        ((a << (w - s)) | (b >> s)) & m
    }
}

/// A value of up to 16 little-endian bytes.
fn wide_from_le(bytes: &[u8], w: Width) -> u128 {
    let mut le = [0u8; 16];
    le[..bytes.len().min(16)].copy_from_slice(&bytes[..bytes.len().min(16)]);
    u128::from_le_bytes(le) & mask(w)
}

/// The concrete domain: its state is the position in the test file's inputs.
#[derive(Clone, Debug, Default)]
pub struct Concrete {
    inputs: Vec<TestInput>,
    next: usize,
    /// Inputs the program asked for, in order, with the bytes it got (so a replay can write them back).
    pub consumed: Vec<TestInput>,
    /// Human-readable notes about inputs that did not fit the requests (sizes that differ, missing ones).
    pub warnings: Vec<String>,
}

impl Concrete {
    /// A domain that answers input requests from `inputs`, in order.
    pub fn new(inputs: Vec<TestInput>) -> Self {
        Concrete {
            inputs,
            next: 0,
            consumed: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Inputs of the test file the program never asked for.
    pub fn unused_inputs(&self) -> usize {
        self.inputs.len().saturating_sub(self.next)
    }
}

impl Domain for Concrete {
    const DECIDES_PURELY: bool = true;
    type Val = u128;
    type Byte = u8;
    /// A concrete run never forks.
    type Regs = crate::regs::OwnedRegs<u128>;

    #[inline(always)]
    fn constant(&mut self, w: Width, bits: u128) -> u128 {
        bits & mask(w)
    }
    #[inline(always)]
    fn as_const(&self, v: &u128) -> Option<u128> {
        Some(*v)
    }
    #[inline(always)]
    fn binop(&mut self, op: BinOp, w: Width, a: &u128, b: &u128) -> u128 {
        binop(op, w, *a, *b)
    }
    #[inline(always)]
    fn cmp(&mut self, op: CmpOp, w: Width, a: &u128, b: &u128) -> u128 {
        cmp(op, w, *a, *b) as u128
    }
    fn unop(&mut self, op: UnOp, w: Width, a: &u128) -> u128 {
        unop(op, w, *a)
    }
    #[inline(always)]
    fn cast(&mut self, op: CastOp, from: Width, to: Width, a: &u128) -> u128 {
        cast(op, from, to, *a)
    }
    #[inline(always)]
    fn ite(&mut self, c: &u128, _w: Width, a: &u128, b: &u128) -> u128 {
        if *c & 1 != 0 {
            *a
        } else {
            *b
        }
    }
    fn overflows(&mut self, op: OverflowOp, w: Width, a: &u128, b: &u128) -> u128 {
        overflows(op, w, *a, *b) as u128
    }
    fn funnel_shift(&mut self, left: bool, w: Width, a: &u128, b: &u128, s: &u128) -> u128 {
        funnel_shift(left, w, *a, *b, *s)
    }
    #[inline(always)]
    fn const_byte(&mut self, b: u8) -> u8 {
        b
    }
    #[inline(always)]
    fn byte_as_const(&self, b: &u8) -> Option<u8> {
        Some(*b)
    }
    #[inline(always)]
    fn val_to_bytes(&mut self, v: &u128, _w: Width, out: &mut [u8]) {
        // One store of the common sizes' type: no call to memmove per store. (Written as copies of
        // `to_le_bytes`, the arms were alike enough for the optimiser to merge them into one `memcpy`
        // of `out.len()` bytes where stores are inlined into the run loop.)
        let at = out.as_mut_ptr();
        // SAFETY: each arm writes exactly `out.len()` bytes at its start (unaligned stores).
        unsafe {
            match out.len() {
                1 => *at = *v as u8,
                2 => at.cast::<u16>().write_unaligned((*v as u16).to_le()),
                4 => at.cast::<u32>().write_unaligned((*v as u32).to_le()),
                8 => at.cast::<u64>().write_unaligned((*v as u64).to_le()),
                n => out.copy_from_slice(&v.to_le_bytes()[..n]),
            }
        }
    }
    #[inline(always)]
    fn bytes_to_val(&mut self, bytes: &[u8], w: Width) -> u128 {
        // One load of the common sizes' type (as `val_to_bytes` stores them): the slice patterns of
        // single bytes were each a test of the length and a load per byte.
        let at = bytes.as_ptr();
        // SAFETY: each arm reads exactly `bytes.len()` bytes at its start (unaligned loads).
        let v = unsafe {
            match bytes.len() {
                1 => *at as u128,
                2 => u16::from_le(at.cast::<u16>().read_unaligned()) as u128,
                4 => u32::from_le(at.cast::<u32>().read_unaligned()) as u128,
                8 => u64::from_le(at.cast::<u64>().read_unaligned()) as u128,
                _ => return wide_from_le(bytes, w),
            }
        };
        // Only a width that is not whole bytes (`i1`, a bit-field's) has bits to clear.
        if w as usize == bytes.len() * 8 {
            v
        } else {
            v & mask(w)
        }
    }
    #[inline(always)]
    fn decide(&mut self, _why: Decision, cond: &u128) -> bool {
        *cond & 1 != 0
    }
    #[inline(always)]
    fn choose(&mut self, _why: Decision, v: &u128, _w: Width) -> u128 {
        *v
    }
    fn assume(&mut self, cond: &u128) -> bool {
        *cond & 1 != 0
    }
    fn input(&mut self, req: InputRequest<'_>, n: usize) -> Vec<u8> {
        let name = req.name();
        let mut bytes = vec![0u8; n];
        match self.inputs.get(self.next) {
            Some(given) => {
                if given.bytes.len() != n {
                    self.warnings.push(format!(
                        "input #{} `{}` has {} bytes but the program asked for {} ({}): {}",
                        self.next + 1,
                        given.name,
                        given.bytes.len(),
                        n,
                        name,
                        if given.bytes.len() < n {
                            "padded with zeros"
                        } else {
                            "truncated"
                        }
                    ));
                }
                let k = given.bytes.len().min(n);
                bytes[..k].copy_from_slice(&given.bytes[..k]);
            }
            None => {
                if self.next == self.inputs.len() && !self.inputs.is_empty() {
                    self.warnings.push(format!(
                        "the test has {} inputs; further inputs (from `{}` on) are zero",
                        self.inputs.len(),
                        name
                    ));
                }
            }
        }
        self.next += 1;
        self.consumed.push(TestInput {
            name,
            bytes: bytes.clone(),
        });
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_arithmetic_wraps_at_width() {
        assert_eq!(binop(BinOp::Add, 8, 0x7f, 1), 0x80);
        assert_eq!(
            binop(BinOp::SDiv, 32, (-7i32) as u32 as u128, 2),
            (-3i32) as u32 as u128
        );
        assert_eq!(
            binop(BinOp::SRem, 32, (-7i32) as u32 as u128, 2),
            (-1i32) as u32 as u128
        );
        assert_eq!(binop(BinOp::AShr, 16, 0x8000, 15), 0xffff);
        assert_eq!(binop(BinOp::SDiv, 8, 0x80, 0xff), 0x80);
    }

    #[test]
    fn masks_have_exactly_their_width_of_low_bits() {
        for w in 0..=130u32 {
            let ones = (0..w.min(128)).fold(0u128, |m, bit| m | 1 << bit);
            assert_eq!(mask(w), ones, "width {w}");
        }
    }

    /// Values whose bits around every width's sign bit vary: all ones, alternating, a single high bit.
    const PATTERNS: [u128; 6] = [
        0,
        u128::MAX,
        0x5555_5555_5555_5555_5555_5555_5555_5555,
        0xaaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa,
        1 << 127,
        0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
    ];

    #[test]
    fn sign_extension_copies_the_sign_bit_upwards() {
        for w in 1..=128u32 {
            for v in PATTERNS {
                let v = v & mask(w);
                // Bit by bit: the low `w` bits of `v`, then its bit `w - 1` repeated.
                let sign = v >> (w - 1) & 1;
                let expected = (0..128).fold(0u128, |r, bit| {
                    let b = if bit < w { v >> bit & 1 } else { sign };
                    r | b << bit
                });
                assert_eq!(sext(v, w) as u128, expected, "width {w}, value {v:#x}");
            }
        }
    }

    #[test]
    fn loaded_values_are_their_little_endian_bytes_cut_to_the_width() {
        let mut dom = Concrete::default();
        for n in [1usize, 2, 3, 4, 8, 10, 16] {
            for w in 1..=(8 * n as u32) {
                for v in PATTERNS {
                    let bytes = &v.to_le_bytes()[..n];
                    // Byte by byte, most significant first, then the bits above `w` cleared.
                    let whole = bytes.iter().rev().fold(0u128, |r, &b| r << 8 | b as u128);
                    let expected = whole & mask(w);
                    assert_eq!(dom.bytes_to_val(bytes, w), expected, "{n} bytes, width {w}");
                }
            }
        }
    }

    #[test]
    fn overflow_predicates() {
        assert!(overflows(OverflowOp::SAdd, 32, 0x7fff_ffff, 1));
        assert!(!overflows(OverflowOp::SAdd, 32, 0xffff_ffff, 1));
        assert!(overflows(OverflowOp::UAdd, 32, 0xffff_ffff, 1));
        assert!(overflows(OverflowOp::SMul, 64, 1 << 62, 2));
        assert!(overflows(OverflowOp::SAdd, 128, i128::MAX as u128, 1));
        assert!(!overflows(OverflowOp::SSub, 128, 0, 1));
        assert!(overflows(OverflowOp::SSub, 128, i128::MIN as u128, 1));
    }

    #[test]
    fn bit_intrinsics() {
        assert_eq!(unop(UnOp::Ctlz, 32, 1), 31);
        assert_eq!(unop(UnOp::Cttz, 32, 0), 32);
        assert_eq!(unop(UnOp::Bswap, 32, 0x1122_3344), 0x4433_2211);
        assert_eq!(unop(UnOp::Ctpop, 16, 0xff01), 9);
        assert_eq!(funnel_shift(true, 8, 0x81, 0x80, 1), 0x03);
        assert_eq!(funnel_shift(false, 8, 0x01, 0x02, 1), 0x81);
        assert_eq!(unop(UnOp::Abs, 8, 0x80), 0x80);
    }
}
