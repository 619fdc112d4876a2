//! The clauses over mathematical integers, for Spacer: Z3's Spacer finds linear invariants over
//! integers at once where it gets nowhere on 32-bit vectors, so Spacer sees each bit-vector as an
//! integer (sums without wrapping, constants with their signed value, comparisons without sign) — what
//! SeaHorn does. That is a guess, not the program: what makes an answer sound is the re-check of the
//! invariant Spacer returns, translated back exactly, on the bit-vector clauses ([`crate::recheck`]).
//! Anything without an integer counterpart (bitwise operations, products of two variables, bytes that
//! do not make up a value) becomes an unconstrained integer.

use rustc_hash::FxHashMap;
use symex_expr::{Op, Sort, Term};

/// The translation of the bit-vector terms of one clause system.
#[derive(Default)]
pub struct Abstraction {
    cache: FxHashMap<Term, Term>,
    fresh: u64,
}

/// The integer variable that stands for a bit-vector variable (or a Boolean one, kept).
pub fn int_var(v: &Term) -> Term {
    match v.sort() {
        Sort::Bool => v.clone(),
        _ => Term::var(
            &format!("int_{}", v.as_var().expect("a variable")),
            Sort::Int,
        ),
    }
}

impl Abstraction {
    /// `t` over integers (a Boolean stays Boolean, a bit-vector becomes an integer).
    pub fn of(&mut self, t: &Term) -> Term {
        if let Some(x) = self.cache.get(t) {
            return x.clone();
        }
        let x = self.translate(t);
        self.cache.insert(t.clone(), x.clone());
        x
    }

    fn unconstrained(&mut self, s: Sort) -> Term {
        self.fresh += 1;
        let sort = if s == Sort::Bool {
            Sort::Bool
        } else {
            Sort::Int
        };
        Term::var(&format!("int_free{}", self.fresh), sort)
    }

    fn translate(&mut self, t: &Term) -> Term {
        let a: Vec<Term> = t.args().to_vec();
        let bool_args = a.iter().all(|x| x.sort() == Sort::Bool);
        let mk = |o: Op, args: &[Term]| Term::try_new(o, args).ok();
        let r = match t.op() {
            Op::Var(_) if matches!(t.sort(), Sort::Bool | Sort::BitVec(_)) => Some(int_var(t)),
            Op::BoolConst(_) => Some(t.clone()),
            Op::BvConst { value, width } => {
                let v = *value as i128;
                let signed = if *width < 128 && (v >> (width - 1)) & 1 == 1 {
                    v - (1i128 << width)
                } else {
                    v
                };
                Some(Term::int(signed))
            }
            Op::Not | Op::And | Op::Or | Op::Implies | Op::Xor if bool_args => {
                let xs: Vec<Term> = a.iter().map(|x| self.of(x)).collect();
                mk(t.op().clone(), &xs)
            }
            Op::Ite | Op::Eq => {
                let xs: Vec<Term> = a.iter().map(|x| self.of(x)).collect();
                mk(t.op().clone(), &xs)
            }
            Op::BvAdd | Op::BvSub | Op::BvNeg => {
                let xs: Vec<Term> = a.iter().map(|x| self.of(x)).collect();
                let o = match t.op() {
                    Op::BvAdd => Op::IntAdd,
                    Op::BvSub => Op::IntSub,
                    _ => Op::IntNeg,
                };
                mk(o, &xs)
            }
            Op::BvMul if a.iter().any(|x| x.as_bv().is_some()) => {
                let xs: Vec<Term> = a.iter().map(|x| self.of(x)).collect();
                mk(Op::IntMul, &xs)
            }
            Op::BvUlt | Op::BvSlt => mk(Op::IntLt, &[self.of(&a[0]), self.of(&a[1])]),
            Op::BvUle | Op::BvSle => mk(Op::IntLe, &[self.of(&a[0]), self.of(&a[1])]),
            Op::ZeroExt(_) | Op::SignExt(_) => Some(self.of(&a[0])),
            // Truncation to the low bits: the same integer while it fits.
            Op::Extract { lo: 0, .. } => Some(self.of(&a[0])),
            Op::Concat => whole(t).map(|w| self.of(&w)),
            _ => None,
        };
        r.unwrap_or_else(|| self.unconstrained(t.sort()))
    }
}

/// The term whose bytes a concatenation puts back together in order (`concat(extract(31,24,x), …,
/// extract(7,0,x))` is `x`).
fn whole(t: &Term) -> Option<Term> {
    let mut parts = Vec::new();
    flatten(t, &mut parts);
    let mut base: Option<Term> = None;
    let mut hi = t.width();
    for p in parts {
        let Op::Extract { hi: h, lo } = p.op() else {
            return None;
        };
        let x = &p.args()[0];
        if *h + 1 != hi || base.as_ref().is_some_and(|b| b != x) {
            return None;
        }
        base = Some(x.clone());
        hi = *lo;
    }
    base.filter(|b| hi == 0 && b.width() == t.width())
}

fn flatten(t: &Term, out: &mut Vec<Term>) {
    if matches!(t.op(), Op::Concat) {
        for a in t.args() {
            flatten(a, out);
        }
    } else {
        out.push(t.clone());
    }
}

/// Whether the clauses compare signed more often than unsigned: the cells are then read as signed
/// numbers (Spacer's integers get that range, and the invariant is read back the same way first).
pub fn mostly_signed(c: &crate::clauses::Clauses) -> bool {
    let roots = c.terms_of(|_| true);
    let (mut s, mut u) = (0, 0);
    symex_expr::visit::postorder(&roots, |t| match t.op() {
        Op::BvSlt | Op::BvSle => s += 1,
        Op::BvUlt | Op::BvUle => u += 1,
        _ => {}
    });
    s > u
}

/// `p` (an integer) within the unsigned or signed range of `w` bits.
pub fn in_range(p: &Term, w: u32, signed: bool) -> Term {
    if p.sort() != Sort::Int || w >= 127 {
        return Term::tt();
    }
    let (lo, hi) = if signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    };
    let le = |a: &Term, b: &Term| Term::new(Op::IntLe, &[a.clone(), b.clone()]);
    le(&Term::int(lo), p).and(&le(p, &Term::int(hi)))
}
