//! Unsigned comparisons of merged values decided without the solver. After a loop, a value is an `ite`
//! tree over the exits (`ite(exit₁, s₁, ite(exit₂, s₂, …))`), and a comparison of two such values splits
//! into the comparisons of their leaves under the same conditions. A leaf pair is decided by the operands'
//! unsigned ranges, or by `x ≤ x + y` when the sum cannot wrap: the lecture's example 2 (`s ≥ v` with `s`
//! a sum of at most 256 bytes in 32 bits) holds at every leaf, so its assertion folds to true and the error
//! formula is empty — which the bit-level solver cannot show for 256 chained additions.

use rustc_hash::FxHashMap;
use symex_engine::domain::CmpOp;
use symex_expr::{Op, Term};

/// Leaf pairs one comparison may visit.
const BUDGET: u32 = 16384;

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// The unsigned interval of `t`, memoised over the term's DAG (sums of hundreds of terms are deeper than
/// the term library's bounded analysis looks).
fn range(t: &Term, memo: &mut FxHashMap<Term, (u128, u128)>) -> (u128, u128) {
    if let Some(c) = t.as_bv() {
        return (c, c);
    }
    if let Some(r) = memo.get(t) {
        return *r;
    }
    let w = t.width();
    let r = match t.op() {
        Op::ZeroExt(_) => range(&t.args()[0], memo),
        Op::BvAdd => {
            let (mut lo, mut hi) = (0u128, 0u128);
            let mut wraps = false;
            for a in t.args() {
                let (l, h) = range(a, memo);
                lo = lo.saturating_add(l);
                match hi.checked_add(h) {
                    Some(s) if s <= mask(w) => hi = s,
                    _ => wraps = true,
                }
            }
            if wraps {
                (0, mask(w))
            } else {
                (lo, hi)
            }
        }
        Op::Ite => {
            let (a, b) = (range(&t.args()[1], memo), range(&t.args()[2], memo));
            (a.0.min(b.0), a.1.max(b.1))
        }
        _ => symex_expr::unsigned_range(t),
    };
    memo.insert(t.clone(), r);
    r
}

/// `(c, a, b)` when `t` is `ite(c, a, b)`, seen through a zero extension.
fn ite_parts(t: &Term) -> Option<(Term, Term, Term)> {
    match t.op() {
        Op::Ite => {
            let a = t.args();
            Some((a[0].clone(), a[1].clone(), a[2].clone()))
        }
        Op::ZeroExt(_) => {
            let (c, a, b) = ite_parts(&t.args()[0])?;
            let w = t.width();
            Some((c, a.zext_to(w), b.zext_to(w)))
        }
        _ => None,
    }
}

struct Decider {
    memo: FxHashMap<Term, (u128, u128)>,
    budget: u32,
}

impl Decider {
    /// `a ≤ b` (`strict`: `a < b`) for every value, `Some(answer)`, or `None` when not decided.
    fn le(&mut self, a: &Term, b: &Term, strict: bool) -> Option<bool> {
        if self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        if a == b {
            return Some(!strict);
        }
        match (ite_parts(a), ite_parts(b)) {
            (Some((c, a1, a2)), Some((d, b1, b2))) if c == d => {
                return self.both(|s| s.le(&a1, &b1, strict), |s| s.le(&a2, &b2, strict));
            }
            (Some((_, a1, a2)), _) => {
                return self.both(|s| s.le(&a1, b, strict), |s| s.le(&a2, b, strict));
            }
            (_, Some((_, b1, b2))) => {
                return self.both(|s| s.le(a, &b1, strict), |s| s.le(a, &b2, strict));
            }
            _ => {}
        }
        let (ra, rb) = (range(a, &mut self.memo), range(b, &mut self.memo));
        if (strict && ra.1 < rb.0) || (!strict && ra.1 <= rb.0) {
            return Some(true);
        }
        if (strict && ra.0 >= rb.1) || (!strict && ra.0 > rb.1) {
            return Some(false);
        }
        // x ≤ x + y when the sum does not wrap: `range` gives a sum that may wrap the full range.
        let no_wrap_sum_with_a =
            *b.op() == Op::BvAdd && b.args().iter().any(|x| x == a) && rb != (0, mask(b.width()));
        if !strict && no_wrap_sum_with_a {
            return Some(true);
        }
        None
    }

    fn both(
        &mut self,
        f: impl FnOnce(&mut Self) -> Option<bool>,
        g: impl FnOnce(&mut Self) -> Option<bool>,
    ) -> Option<bool> {
        let x = f(self)?;
        (g(self)? == x).then_some(x)
    }
}

/// The value of the unsigned comparison `a op b` when it is the same for every value of the inputs; only
/// tried when an operand is a merged value (an `ite`), where it pays.
pub fn decide(op: CmpOp, a: &Term, b: &Term) -> Option<bool> {
    if ite_parts(a).is_none() && ite_parts(b).is_none() {
        return None;
    }
    let mut d = Decider {
        memo: FxHashMap::default(),
        budget: BUDGET,
    };
    match op {
        CmpOp::Ule => d.le(a, b, false),
        CmpOp::Ult => d.le(a, b, true),
        CmpOp::Uge => d.le(b, a, false),
        CmpOp::Ugt => d.le(b, a, true),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symex_expr::{Model, Sort, Value};

    /// Every comparison `decide` answers holds for all values (brute force over two 4-bit inputs), on
    /// merged shapes: `ite`s on one condition, zero extensions of them, sums that may or may not wrap.
    #[test]
    fn decided_comparisons_hold_for_every_value() {
        let x = Term::var("x", Sort::bv(4));
        let y = Term::var("y", Sort::bv(4));
        let c = x.bvult(&y);
        let (zx, zy) = (x.zext_to(8), y.zext_to(8));
        let sums = [zx.bvadd(&zy), zx.bvadd(&Term::bv(250, 8)), zx.bvadd(&zx)];
        let mut leaves = vec![zx.clone(), zy.clone(), Term::bv(3, 8), Term::bv(200, 8)];
        leaves.extend(sums.iter().cloned());
        let mut terms = leaves.clone();
        for a in &leaves {
            for b in &leaves {
                terms.push(c.ite(a, b));
            }
        }
        terms.push(c.ite(&x, &y).zext_to(8));
        let ops = [CmpOp::Ule, CmpOp::Ult, CmpOp::Uge, CmpOp::Ugt];
        let mut decided = 0;
        for a in &terms {
            for b in &terms {
                for op in ops {
                    let Some(answer) = decide(op, a, b) else {
                        continue;
                    };
                    decided += 1;
                    let t = match op {
                        CmpOp::Ule => a.bvule(b),
                        CmpOp::Ult => a.bvult(b),
                        CmpOp::Uge => a.bvuge(b),
                        _ => a.bvugt(b),
                    };
                    for vx in 0..16 {
                        for vy in 0..16 {
                            let mut m = Model::new();
                            m.insert(
                                &x,
                                Value::Bv {
                                    value: vx,
                                    width: 4,
                                },
                            );
                            m.insert(
                                &y,
                                Value::Bv {
                                    value: vy,
                                    width: 4,
                                },
                            );
                            assert_eq!(m.eval_bool(&t), Ok(answer), "{a} {op:?} {b} at {vx}, {vy}");
                        }
                    }
                }
            }
        }
        assert!(decided > 50, "only {decided} comparisons decided");
    }
}
