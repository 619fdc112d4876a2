//! Type-range constants as size variables ([B] §5 step 5): a constant near `umax_n = 2ⁿ − 1`
//! or `smax_n = 2ⁿ⁻¹ − 1` in a guard or update (`j + 1 ≤ 4294967295`, the wrap
//! `v = j + 1 − 4294967296`) is rewritten as `b_umax_n + d` or `b_smax_n + d`. The ITS then
//! speaks of `b` instead of the number, so a loop that counts up to the type's maximum gets
//! the bound `4·b_umax32 − …` instead of a 10-digit constant.
//!
//! Sound: every run of the original ITS is a run of the rewritten one with `b` equal to its
//! constant, so a bound over the rewritten ITS, evaluated at that constant, bounds it.
//! Widths below 16 keep their constants: their bounds are small numbers that say more as
//! numbers (`255·4`) than as a variable.

use symex_its::Poly;

/// Which maximum a size variable stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `umax_n = 2ⁿ − 1`.
    Umax,
    /// `smax_n = 2ⁿ⁻¹ − 1` (`|smin_n| = smax_n + 1`).
    Smax,
}

/// A size variable `b_umax_n` or `b_smax_n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SizeVar {
    pub kind: Kind,
    pub width: u32,
}

impl SizeVar {
    /// The constant the variable stands for.
    pub fn value(self) -> i128 {
        match self.kind {
            Kind::Umax => (1i128 << self.width) - 1,
            Kind::Smax => (1i128 << (self.width - 1)) - 1,
        }
    }

    /// `b_umax32` (the paper's name).
    pub fn name(self) -> String {
        match self.kind {
            Kind::Umax => format!("b_umax{}", self.width),
            Kind::Smax => format!("b_smax{}", self.width),
        }
    }
}

/// Widths whose range constants become variables.
const WIDTHS: [u32; 3] = [16, 32, 64];

/// How far from its maximum a constant may be to be read as `b + d`: program literals are
/// small, while `umax − 1`, `2ⁿ = umax + 1` and sums with small literals are close.
fn reach(width: u32) -> i128 {
    1i128 << (width / 2)
}

/// The size variable and offset `d` with `|c| = value + d`, if `c` is a range constant.
pub fn classify(c: i128) -> Option<(SizeVar, i128)> {
    let a = c.checked_abs()?;
    let mut best: Option<(SizeVar, i128)> = None;
    for width in WIDTHS {
        for kind in [Kind::Umax, Kind::Smax] {
            let s = SizeVar { kind, width };
            let d = a - s.value();
            if d.abs() <= reach(width) && best.is_none_or(|(_, bd)| d.abs() < bd.abs()) {
                best = Some((s, d));
            }
        }
    }
    best
}

/// `p` with its constant term rewritten over a size variable: `c = ±(b + d)` becomes the
/// polynomial `±(var(b) + d)`, where `var` numbers the size variable. Other monomials'
/// coefficients (the `2ⁿ` of `k·2ⁿ` in a modulo relation) stay: they are exact, and a
/// product of two variables would leave the linear fragment.
pub fn generalize(p: &Poly, var: &mut dyn FnMut(SizeVar) -> usize) -> Poly {
    let c = p.constant_term();
    let Some((s, d)) = classify(c) else {
        return p.clone();
    };
    let rest = p.sub(&Poly::constant(c));
    let b = Poly::var(var(s)).add(&Poly::constant(d));
    if c < 0 {
        rest.sub(&b)
    } else {
        rest.add(&b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_constants_are_recognised_with_their_offset() {
        let u32max = SizeVar {
            kind: Kind::Umax,
            width: 32,
        };
        assert_eq!(classify(4294967295), Some((u32max, 0)));
        assert_eq!(classify(4294967294), Some((u32max, -1)));
        assert_eq!(classify(-4294967296), Some((u32max, 1)));
        let s32 = SizeVar {
            kind: Kind::Smax,
            width: 32,
        };
        assert_eq!(classify(-2147483648), Some((s32, 1)));
        assert_eq!(classify(1000), None);
        assert_eq!(classify(255), None);
    }

    #[test]
    fn generalization_keeps_the_value_at_the_constant() {
        // 4294967294 − x0 ≥ 0 becomes b − 1 − x0 with b = var 7; at b = umax32 the same value.
        let p = Poly::constant(4294967294).sub(&Poly::var(0));
        let g = generalize(&p, &mut |_| 7);
        let mut vals = vec![0i128; 8];
        for x in [0, 5, 4294967295] {
            vals[0] = x;
            vals[7] = 4294967295;
            assert_eq!(g.eval(&vals), p.eval(&vals));
        }
        assert_eq!(g.linear_coeff(7), 1);
        let n = Poly::constant(-4294967296).add(&Poly::var(0));
        let gn = generalize(&n, &mut |_| 7);
        assert_eq!(gn.linear_coeff(7), -1);
        assert_eq!(gn.eval(&vals), n.eval(&vals));
    }
}
