//! Property: the rewrites that decide comparisons by the operands' unsigned ranges, and that take
//! addresses (object base + zero-extended offset) apart, preserve meaning. Index- and address-shaped
//! terms are built both exactly as written and through the smart constructors, then evaluated alike
//! on random values.

mod gen;

use gen::{app, Pair};
use proptest::prelude::*;
use symex_expr::{Model, Op, Sort, Term, Value};

fn leaf(t: Term) -> Pair {
    Pair::same(t)
}

struct Shape<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Shape<'_> {
    fn next(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    fn below(&mut self, n: u8) -> u8 {
        self.next() % n
    }
    fn constant(&mut self, w: u32) -> u128 {
        let v = match self.below(5) {
            0 => u128::from(self.next()),
            1 => (1u128 << self.below(w.min(127) as u8)) - 1, // a mask
            2 => 1u128 << self.below(w.min(127) as u8),       // a bound
            3 => u128::from(self.next()) << (w / 2),          // low half zero
            _ => u128::from(self.next()) * 0x0101_0101,
        };
        v & symex_expr::bvsem::mask(w)
    }
}

fn var(name: &str, w: u32) -> Term {
    Term::var(name, Sort::bv(w))
}

/// A 32-bit index-shaped term.
fn index(s: &mut Shape, depth: u32) -> Pair {
    let k = |s: &mut Shape, w: u32| leaf(Term::bv(s.constant(w), w));
    if depth == 0 {
        return match s.below(3) {
            0 => leaf(var("x", 32)),
            1 => app(Op::ZeroExt(24), &[leaf(var("b", 8))]),
            _ => app(Op::Concat, &[leaf(var("b", 8)), leaf(var("c", 8))]).and_then_zext(16),
        };
    }
    let sub = |s: &mut Shape| index(s, depth - 1);
    match s.below(8) {
        0 => app(Op::BvAnd, &[k(s, 32), sub(s)]),
        1 => {
            let x = sub(s);
            app(Op::BvUrem, &[x, k(s, 32)])
        }
        2 => {
            let x = sub(s);
            let sh = leaf(Term::bv(u128::from(s.below(33)), 32));
            app(Op::BvLshr, &[x, sh])
        }
        3 => app(Op::BvAdd, &[k(s, 32), sub(s)]),
        4 => {
            let c = app(
                Op::Eq,
                &[leaf(var("b", 8)), leaf(Term::bv(u128::from(s.next()), 8))],
            );
            app(Op::Ite, &[c, sub(s), sub(s)])
        }
        5 => {
            let x = sub(s);
            app(Op::BvOr, &[x, k(s, 32)])
        }
        6 => {
            let x = sub(s);
            app(Op::BvUdiv, &[x, k(s, 32)])
        }
        _ => sub(s),
    }
}

trait Zext {
    fn and_then_zext(self, n: u32) -> Pair;
}
impl Zext for Pair {
    fn and_then_zext(self, n: u32) -> Pair {
        app(Op::ZeroExt(n), &[self])
    }
}

/// A 64-bit address: a base with zero low bits plus the zero-extended index, maybe taken apart again.
fn address_part(s: &mut Shape, idx: Pair) -> Pair {
    let base = (u128::from(s.next()) << 32) | (u128::from(s.below(2)) * u128::from(s.next()));
    let addr = app(
        Op::BvAdd,
        &[leaf(Term::bv(base, 64)), idx.and_then_zext(32)],
    );
    match s.below(4) {
        0 => {
            let hi = app(Op::BvLshr, &[addr, leaf(Term::bv(32, 64))]);
            app(Op::Extract { hi: 31, lo: 0 }, &[hi])
        }
        1 => app(Op::Extract { hi: 31, lo: 0 }, &[addr]),
        2 => app(Op::Extract { hi: 47, lo: 16 }, &[addr]),
        // The object whose provenance the address carries: `(addr + half region) >> offset bits`.
        _ => {
            let bits = [20u32, 32, 40][usize::from(s.below(3))];
            let half = leaf(Term::bv(1 << (bits - 1), 64));
            let shifted = app(Op::BvAdd, &[half, addr]);
            let hi = app(Op::BvLshr, &[shifted, leaf(Term::bv(u128::from(bits), 64))]);
            app(Op::Extract { hi: 31, lo: 0 }, &[hi])
        }
    }
}

fn comparison(s: &mut Shape) -> Pair {
    let idx = index(s, 3);
    let t = if s.below(2) == 0 {
        idx
    } else {
        address_part(s, idx)
    };
    let k = leaf(Term::bv(s.constant(32), 32));
    let op = [Op::BvUlt, Op::BvUle, Op::Eq][usize::from(s.below(3))].clone();
    if s.below(2) == 0 {
        app(op, &[t, k])
    } else {
        app(op, &[k, t])
    }
}

fn model(x: u32, b: u8, c: u8) -> Model {
    let mut m = Model::new();
    m.insert(
        &var("x", 32),
        Value::Bv {
            value: u128::from(x),
            width: 32,
        },
    );
    m.insert(
        &var("b", 8),
        Value::Bv {
            value: u128::from(b),
            width: 8,
        },
    );
    m.insert(
        &var("c", 8),
        Value::Bv {
            value: u128::from(c),
            width: 8,
        },
    );
    m
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn range_and_address_rewrites_preserve_meaning(
        shape in proptest::collection::vec(any::<u8>(), 0..64),
        values in proptest::collection::vec((any::<u32>(), any::<u8>(), any::<u8>()), 1..12),
    ) {
        let p = comparison(&mut Shape { bytes: &shape, at: 0 });
        for &(x, b, c) in values.iter().chain(&[(0, 0, 0), (u32::MAX, 255, 255)]) {
            let m = model(x, b, c);
            prop_assert_eq!(m.eval(&p.raw), m.eval(&p.simp), "raw {} simplified {}", p.raw, p.simp);
        }
    }
}

/// The shapes the explorer builds for `t[i % 64]` fold: the object is a constant and the bounds check
/// is true, so neither reaches the solver. Both address layouts: the offset taken by an extraction of the
/// low 32 bits, and by a mask of the low 40 bits (x86-64's `id << 40 | offset`).
#[test]
fn a_masked_index_into_an_object_needs_no_solver() {
    let x = var("x", 32);
    for index in [x.bvand(&Term::bv(63, 32)), x.bvurem(&Term::bv(64, 32))] {
        for offset_bits in [32u32, 40] {
            let addr = Term::bv(4 << offset_bits, 64).bvadd(&index.zext(32));
            let object = addr
                .bvlshr(&Term::bv(u128::from(offset_bits), 64))
                .extract(31, 0);
            assert_eq!(object.as_bv(), Some(4));
            let offset = if offset_bits == 32 {
                addr.extract(31, 0).zext(32)
            } else {
                addr.bvand(&Term::bv((1 << offset_bits) - 1, 64))
            };
            let end = offset.bvadd(&Term::bv(1, 64));
            assert!(end.bvule(&Term::bv(64, 64)).is_true(), "{offset_bits}");
            assert!(!end.bvule(&Term::bv(63, 64)).is_true(), "{offset_bits}");
        }
    }
}

/// Pointer arithmetic poisons a result whose provenance (`owner`, the object within half a region)
/// differs from its base's: `ite(owner(p) != owner(base), WILD | offset, p)`. For `t + i % 64` the owner
/// is the base's for every `i`, so the test folds and the poison never reaches the bounds check, which
/// then folds as well (the x86-64 and the i386 layouts).
#[test]
fn the_poison_of_a_small_offset_from_a_known_object_folds_away() {
    let x = var("x", 32);
    let index = x.bvurem(&Term::bv(64, 32)).zext(32);
    for offset_bits in [40u32, 20] {
        let owner = |a: &Term| {
            a.bvadd(&Term::bv(1 << (offset_bits - 1), 64))
                .bvlshr(&Term::bv(u128::from(offset_bits), 64))
                .extract(31, 0)
        };
        let base = Term::bv(4 << offset_bits, 64);
        let addr = base.bvadd(&index);
        let leaves = owner(&addr).ne(&owner(&base));
        assert!(leaves.is_false(), "{offset_bits}: {leaves}");
        let wild = Term::bv(0xfff << offset_bits, 64);
        let mask = Term::bv((1 << offset_bits) - 1, 64);
        let p = leaves.ite(&wild.bvor(&addr.bvand(&mask)), &addr);
        assert_eq!(p, addr);
        let end = p.bvand(&mask).bvadd(&Term::bv(1, 64));
        assert!(end.bvule(&Term::bv(64, 64)).is_true(), "{offset_bits}");
        // An offset that may reach the next object's provenance keeps the test.
        let far = base.bvadd(&var("y", 64));
        assert!(!owner(&far).ne(&owner(&base)).is_const(), "{offset_bits}");
    }
}
