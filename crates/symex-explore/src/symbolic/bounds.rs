//! One-sided bounds in the path condition: a comparison of a term with a constant (`K <u t`,
//! `t <=s K`, or a negation of one) says only that `t` lies above or below `K`. A path that forks on
//! `i < n` in every iteration of a loop adds `n > 0`, `n > 1`, …: each new bound implies the one
//! before, so the path condition keeps only the tightest lower and upper bound of each term and stays
//! the same size however deep the loop runs (queries, the models checked against it and the state's
//! copies at every fork then cost the same in the 65,536th iteration as in the first).
//!
//! Replacing a bound by a tighter one (or dropping a looser one) leaves the conjunction equivalent:
//! the tighter one implies the other.

use symex_expr::{Model, Op, Term, Value};

/// Which bound of a term, in which order: the key under which the path condition keeps one.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct BoundKey {
    pub term: Term,
    pub signed: bool,
    pub upper: bool,
}

/// `term >= value` (lower) or `term <= value` (upper), in the key's order. Signed values are kept with
/// the sign bit flipped, so that one unsigned comparison orders both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Bound {
    pub key: BoundKey,
    pub value: u128,
}

impl Bound {
    /// Whether this bound implies `other_value`, a bound of the same key.
    pub fn implies(&self, other_value: u128) -> bool {
        if self.key.upper {
            self.value <= other_value
        } else {
            self.value >= other_value
        }
    }
}

/// The order-preserving encoding of `v` (a value of a `w`-bit term) in `signed` order.
pub(super) fn encode(v: u128, w: u32, signed: bool) -> u128 {
    if signed {
        v ^ (1u128 << (w - 1))
    } else {
        v
    }
}

/// The largest value of `w` bits.
pub(super) fn max_of(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// Makes `t` take the value `v` in `m` by assigning the variables it is made of: a variable, a
/// concatenation of such terms (an input's bytes), or an extension of one. `None` for any other shape.
/// Assignments that contradict each other (a variable twice) leave a model in which `t` is not `v`:
/// the caller evaluates the constraints under the model before trusting it.
pub(super) fn assign(t: &Term, v: u128, m: &mut Model) -> Option<()> {
    let w = t.width();
    match t.op() {
        Op::Var(_) => {
            m.insert(t, Value::Bv { value: v, width: w });
            Some(())
        }
        Op::Concat => {
            let low = t.arg(1).width();
            assign(t.arg(0), v >> low, m)?;
            assign(t.arg(1), v & max_of(low), m)
        }
        Op::ZeroExt(_) | Op::SignExt(_) => {
            let inner = t.arg(0).width();
            assign(t.arg(0), v & max_of(inner), m)
        }
        _ => None,
    }
}

/// The bound `c` states, when it compares one non-constant term with a constant.
pub(super) fn bound(c: &Term) -> Option<Bound> {
    let (term, signed, upper, value) = parts(c)?;
    Some(Bound {
        key: BoundKey {
            term: term.clone(),
            signed,
            upper,
        },
        value,
    })
}

/// The parts of the bound `c` states, borrowed from `c`: the bounded term, whether the order is
/// signed, whether the bound is an upper one, and its value in that order. (The path condition holds
/// a bound as its constraint alone and reads the rest again from it: see `path_condition.rs`.)
pub(super) fn parts(c: &Term) -> Option<(&Term, bool, bool, u128)> {
    let (cmp, negated) = match c.op() {
        Op::Not => (c.arg(0), true),
        _ => (c, false),
    };
    let (signed, strict) = match cmp.op() {
        Op::BvUlt => (false, true),
        Op::BvUle => (false, false),
        Op::BvSlt => (true, true),
        Op::BvSle => (true, false),
        _ => return None,
    };
    // ¬(a < b) is b <= a, ¬(a <= b) is b < a.
    let (lhs, rhs, strict) = if negated {
        (cmp.arg(1), cmp.arg(0), !strict)
    } else {
        (cmp.arg(0), cmp.arg(1), strict)
    };
    let w = lhs.width();
    if w == 0 || w > 128 {
        return None;
    }
    let flip = |v: u128| encode(v, w, signed);
    let max = max_of(w);
    match (lhs.as_bv(), rhs.as_bv()) {
        // K < t: t >= K + 1; K <= t: t >= K.
        (Some(k), None) => {
            let k = flip(k);
            let lo = if strict {
                k.checked_add(1).filter(|&v| v <= max)?
            } else {
                k
            };
            Some((rhs, signed, false, lo))
        }
        // t < K: t <= K - 1; t <= K: t <= K.
        (None, Some(k)) => {
            let k = flip(k);
            let hi = if strict { k.checked_sub(1)? } else { k };
            Some((lhs, signed, true, hi))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n() -> Term {
        Term::var("n", symex_expr::Sort::bv(32))
    }

    #[test]
    fn a_strict_signed_lower_bound_is_the_constant_plus_one() {
        let b = bound(&Term::bv(5, 32).bvslt(&n())).unwrap();
        assert!(b.key.signed && !b.key.upper);
        assert_eq!(b.value, 6 ^ (1 << 31));
    }

    #[test]
    fn a_negated_comparison_bounds_the_other_side() {
        // ¬(5 <u n) is n <=u 5.
        let b = bound(&Term::bv(5, 32).bvult(&n()).not()).unwrap();
        assert!(!b.key.signed && b.key.upper);
        assert_eq!(b.value, 5);
        // ¬(n <=s 5) is n >=s 6.
        let b = bound(&n().bvsle(&Term::bv(5, 32)).not()).unwrap();
        assert!(b.key.signed && !b.key.upper);
        assert_eq!(b.value, 6 ^ (1 << 31));
    }

    #[test]
    fn an_unsatisfiable_comparison_is_no_bound() {
        assert_eq!(bound(&n().bvult(&Term::bv(0, 32))), None);
        assert_eq!(bound(&Term::bv(u32::MAX as u128, 32).bvult(&n())), None);
    }

    #[test]
    fn assigning_an_inputs_bytes_gives_the_term_its_value() {
        let b = |i: u32| Term::var(&format!("b{i}"), symex_expr::Sort::bv(8));
        let t = b(3).concat(&b(2)).concat(&b(1).concat(&b(0)));
        let mut m = Model::new();
        assign(&t, 0x1234_5678, &mut m).unwrap();
        assert_eq!(m.eval(&t).ok().and_then(|v| v.as_bv()), Some(0x1234_5678));
        let s = b(0).sext_to(32);
        let mut m = Model::new();
        assign(&s, 0xffff_fff0, &mut m).unwrap();
        assert_eq!(m.eval(&s).ok().and_then(|v| v.as_bv()), Some(0xffff_fff0));
    }

    #[test]
    fn a_tighter_bound_implies_a_looser_one() {
        let lo3 = bound(&Term::bv(2, 32).bvult(&n())).unwrap();
        let lo5 = bound(&Term::bv(4, 32).bvult(&n())).unwrap();
        assert!(lo5.implies(lo3.value) && !lo3.implies(lo5.value));
        let hi3 = bound(&n().bvule(&Term::bv(3, 32))).unwrap();
        let hi5 = bound(&n().bvule(&Term::bv(5, 32))).unwrap();
        assert!(hi3.implies(hi5.value) && !hi5.implies(hi3.value));
    }
}
