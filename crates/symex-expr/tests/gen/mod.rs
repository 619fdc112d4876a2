//! Random terms for property tests, built from a stream of choice bytes (so proptest can
//! shrink the stream, and with it the term). Each generated term comes twice: built exactly
//! as chosen (`raw`, through `Term::new_raw`) and through the smart constructors (`simp`).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use symex_expr::{bvsem, ArrayValue, Func, FuncInterp, Model, Op, Sort, Term, USort, Value};

/// The choice stream; once exhausted it answers 0, which always picks a leaf.
pub struct Choices<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Choices<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Choices { bytes, pos: 0 }
    }
    pub fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.byte() as usize % n
    }
    pub fn word(&mut self) -> u128 {
        (0..16).fold(0u128, |acc, _| (acc << 8) | u128::from(self.byte()))
    }
}

/// The sorts the generator builds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum G {
    Bool,
    Bv(u32),
    Int,
    Mem,
    Ref,
}

pub const WIDTHS: [u32; 6] = [1, 4, 8, 16, 64, 128];

pub fn ref_sort() -> Sort {
    Sort::uninterpreted("ref")
}

pub fn mem_sort() -> Sort {
    Sort::array(8, 8)
}

pub fn func() -> Func {
    Func::new("f", &[Sort::bv(8)], Sort::bv(8))
}

fn sort_of(g: G) -> Sort {
    match g {
        G::Bool => Sort::Bool,
        G::Bv(w) => Sort::bv(w),
        G::Int => Sort::Int,
        G::Mem => mem_sort(),
        G::Ref => ref_sort(),
    }
}

/// A term built both ways.
#[derive(Clone, Debug)]
pub struct Pair {
    pub raw: Term,
    pub simp: Term,
}

impl Pair {
    pub fn same(t: Term) -> Pair {
        Pair {
            raw: t.clone(),
            simp: t,
        }
    }
}

pub struct Gen {
    /// How many variables of each sort to draw from (few: terms then share variables).
    pub vars_per_sort: usize,
    /// Whether to use the uninterpreted sort and function (not expressible as values to
    /// pin down in Z3).
    pub uninterpreted: bool,
    /// The bit-vector widths to pick from (8 is always used too).
    pub widths: &'static [u32],
}

pub fn app(op: Op, args: &[Pair]) -> Pair {
    let raw: Vec<Term> = args.iter().map(|p| p.raw.clone()).collect();
    let simp: Vec<Term> = args.iter().map(|p| p.simp.clone()).collect();
    Pair {
        raw: Term::new_raw(op.clone(), &raw),
        simp: Term::new(op, &simp),
    }
}

impl Gen {
    pub fn var(&self, g: G, c: &mut Choices) -> Term {
        let k = c.below(self.vars_per_sort);
        let name = match g {
            G::Bool => format!("b{k}"),
            G::Bv(w) => format!("v{w}_{k}"),
            G::Int => format!("i{k}"),
            G::Mem => format!("mem{k}"),
            G::Ref => format!("r{k}"),
        };
        Term::var(&name, sort_of(g))
    }

    fn bv_const(&self, w: u32, c: &mut Choices) -> Term {
        let m = bvsem::mask(w);
        let v = match c.below(7) {
            0 => 0,
            1 => 1,
            2 => m,
            3 => 1u128 << (w - 1),
            4 => m >> 1,
            5 => u128::from(c.byte()) % u128::from(w + 2),
            _ => c.word(),
        };
        Term::bv(v, w)
    }

    fn int_const(&self, c: &mut Choices) -> Term {
        Term::int(i128::from(c.byte() as i8) / 4)
    }

    fn nonzero_int(&self, c: &mut Choices) -> Term {
        let v = i128::from(c.byte() % 9) - 4;
        Term::int(if v == 0 { 3 } else { v })
    }

    pub fn term(&self, g: G, depth: u32, c: &mut Choices) -> Pair {
        let pick = c.below(64);
        if depth == 0 || pick < 12 {
            return Pair::same(self.leaf(g, pick, c));
        }
        let d = depth - 1;
        match g {
            G::Bool => self.bool_term(pick, d, c),
            G::Bv(w) => self.bv_term(w, pick, d, c),
            G::Int => self.int_term(pick, d, c),
            G::Mem => self.mem_term(pick, d, c),
            G::Ref => {
                let cond = self.term(G::Bool, d, c);
                let (a, b) = (self.term(G::Ref, d, c), self.term(G::Ref, d, c));
                app(Op::Ite, &[cond, a, b])
            }
        }
    }

    fn leaf(&self, g: G, pick: usize, c: &mut Choices) -> Term {
        let var = pick.is_multiple_of(2);
        match g {
            G::Bool if var => self.var(g, c),
            G::Bool => Term::bool(c.byte().is_multiple_of(2)),
            G::Bv(_) if var => self.var(g, c),
            G::Bv(w) => self.bv_const(w, c),
            G::Int if var => self.var(g, c),
            G::Int => self.int_const(c),
            G::Mem if var => self.var(g, c),
            G::Mem => Term::const_array(mem_sort(), &self.bv_const(8, c)),
            G::Ref => self.var(g, c),
        }
    }

    fn any_width(&self, c: &mut Choices) -> u32 {
        self.widths[c.below(self.widths.len())]
    }

    fn bool_term(&self, pick: usize, d: u32, c: &mut Choices) -> Pair {
        let t = |g: G, c: &mut Choices| self.term(g, d, c);
        match pick % 13 {
            12 => self.extended_compare(d, c),
            0 => app(Op::Not, &[t(G::Bool, c)]),
            1 => app(Op::And, &[t(G::Bool, c), t(G::Bool, c)]),
            2 => app(Op::Or, &[t(G::Bool, c), t(G::Bool, c)]),
            3 => app(Op::Xor, &[t(G::Bool, c), t(G::Bool, c)]),
            4 => app(Op::Implies, &[t(G::Bool, c), t(G::Bool, c)]),
            5 => app(Op::Ite, &[t(G::Bool, c), t(G::Bool, c), t(G::Bool, c)]),
            6 | 7 => {
                let w = if c.byte().is_multiple_of(2) {
                    8
                } else {
                    self.any_width(c)
                };
                let op = [Op::Eq, Op::BvUlt, Op::BvUle, Op::BvSlt, Op::BvSle][c.below(5)].clone();
                app(op, &[t(G::Bv(w), c), t(G::Bv(w), c)])
            }
            8 => {
                let op = [Op::Eq, Op::IntLe, Op::IntLt][c.below(3)].clone();
                app(op, &[t(G::Int, c), t(G::Int, c)])
            }
            9 => app(Op::Eq, &[t(G::Bool, c), t(G::Bool, c)]),
            10 if self.uninterpreted => app(Op::Eq, &[t(G::Ref, c), t(G::Ref, c)]),
            _ => app(Op::Eq, &[t(G::Mem, c), t(G::Mem, c)]),
        }
    }

    /// A comparison of an extended narrow term with a constant near the ends of the narrow
    /// range (the case the extension rewrites decide), either way round.
    fn extended_compare(&self, d: u32, c: &mut Choices) -> Pair {
        let (nw, w) = [(1, 8), (4, 8), (8, 16), (8, 32), (16, 64), (64, 128)][c.below(6)];
        let x = self.term(G::Bv(nw), d, c);
        let ext = if c.byte().is_multiple_of(2) {
            Op::ZeroExt(w - nw)
        } else {
            Op::SignExt(w - nw)
        };
        let e = app(ext, &[x]);
        let umax = bvsem::mask(nw);
        let smin = bvsem::sext(1u128 << (nw - 1), nw, w - nw);
        let smax = umax >> 1;
        let base = [0, umax, smin, smax, bvsem::mask(w)][c.below(5)];
        let k = Pair::same(Term::bv(
            base.wrapping_add(u128::from(c.byte() % 3)).wrapping_sub(1),
            w,
        ));
        let op = [Op::BvUlt, Op::BvUle, Op::BvSlt, Op::BvSle][c.below(4)].clone();
        if c.byte().is_multiple_of(2) {
            app(op, &[e, k])
        } else {
            app(op, &[k, e])
        }
    }

    fn bv_term(&self, w: u32, pick: usize, d: u32, c: &mut Choices) -> Pair {
        let t = |g: G, c: &mut Choices| self.term(g, d, c);
        const BINARY: [Op; 17] = [
            Op::BvAdd,
            Op::BvSub,
            Op::BvMul,
            Op::BvUdiv,
            Op::BvSdiv,
            Op::BvUrem,
            Op::BvSrem,
            Op::BvSmod,
            Op::BvAnd,
            Op::BvOr,
            Op::BvXor,
            Op::BvShl,
            Op::BvLshr,
            Op::BvAshr,
            Op::BvAdd,
            Op::BvAnd,
            Op::BvSub,
        ];
        match pick % 10 {
            0..=2 => {
                let op = BINARY[c.below(BINARY.len())].clone();
                app(op, &[t(G::Bv(w), c), t(G::Bv(w), c)])
            }
            3 => {
                let op = [Op::BvNot, Op::BvNeg][c.below(2)].clone();
                app(op, &[t(G::Bv(w), c)])
            }
            4 => app(Op::Ite, &[t(G::Bool, c), t(G::Bv(w), c), t(G::Bv(w), c)]),
            5 => {
                // extract from a wider (or equal) term
                let wider: Vec<u32> = self.widths.iter().copied().filter(|x| *x >= w).collect();
                let src = if wider.is_empty() {
                    w
                } else {
                    wider[c.below(wider.len())]
                };
                let lo = c.below((src - w + 1) as usize) as u32;
                app(Op::Extract { hi: lo + w - 1, lo }, &[t(G::Bv(src), c)])
            }
            6 if w >= 2 => {
                let hi = 1 + c.below((w - 1) as usize) as u32;
                app(Op::Concat, &[t(G::Bv(hi), c), t(G::Bv(w - hi), c)])
            }
            7 if w >= 2 => {
                let from = 1 + c.below((w - 1) as usize) as u32;
                let op = if c.byte().is_multiple_of(2) {
                    Op::ZeroExt(w - from)
                } else {
                    Op::SignExt(w - from)
                };
                app(op, &[t(G::Bv(from), c)])
            }
            8 if w == 8 => app(Op::Select, &[t(G::Mem, c), t(G::Bv(8), c)]),
            9 if w == 8 && self.uninterpreted => app(Op::Apply(func()), &[t(G::Bv(8), c)]),
            _ => {
                let op = BINARY[c.below(BINARY.len())].clone();
                app(op, &[t(G::Bv(w), c), t(G::Bv(w), c)])
            }
        }
    }

    fn int_term(&self, pick: usize, d: u32, c: &mut Choices) -> Pair {
        let t = |g: G, c: &mut Choices| self.term(g, d, c);
        match pick % 8 {
            0 | 1 => app(Op::IntAdd, &[t(G::Int, c), t(G::Int, c)]),
            2 => app(Op::IntSub, &[t(G::Int, c), t(G::Int, c)]),
            3 => {
                let k = Pair::same(self.int_const(c));
                let x = t(G::Int, c);
                if c.byte().is_multiple_of(2) {
                    app(Op::IntMul, &[k, x])
                } else {
                    app(Op::IntMul, &[x, k])
                }
            }
            4 => app(Op::IntNeg, &[t(G::Int, c)]),
            5 => {
                let op = [Op::IntDiv, Op::IntMod][c.below(2)].clone();
                let x = t(G::Int, c);
                app(op, &[x, Pair::same(self.nonzero_int(c))])
            }
            _ => app(Op::Ite, &[t(G::Bool, c), t(G::Int, c), t(G::Int, c)]),
        }
    }

    fn mem_term(&self, pick: usize, d: u32, c: &mut Choices) -> Pair {
        let t = |g: G, c: &mut Choices| self.term(g, d, c);
        match pick % 3 {
            0 | 1 => app(Op::Store, &[t(G::Mem, c), t(G::Bv(8), c), t(G::Bv(8), c)]),
            _ => app(Op::Ite, &[t(G::Bool, c), t(G::Mem, c), t(G::Mem, c)]),
        }
    }

    /// A random assignment to `vars` (and to the function `f`).
    pub fn model(&self, vars: &[Term], c: &mut Choices) -> Model {
        let mut m = Model::new();
        for v in vars {
            let value = match v.sort() {
                Sort::Bool => Value::Bool(c.byte().is_multiple_of(2)),
                Sort::BitVec(w) => Value::Bv {
                    value: self.bv_const(w, c).as_bv().unwrap(),
                    width: w,
                },
                Sort::Int => Value::Int(i128::from(c.byte() as i8)),
                Sort::Array { index, element } => {
                    let mut a = ArrayValue {
                        index_width: index,
                        element_width: element,
                        default: u128::from(c.byte() % 4),
                        entries: BTreeMap::new(),
                    };
                    for _ in 0..c.below(4) {
                        a = a.with(u128::from(c.byte() % 8), u128::from(c.byte()));
                    }
                    Value::Array(Arc::new(a))
                }
                Sort::Uninterpreted(sort) => Value::Uninterpreted {
                    sort,
                    index: u64::from(c.byte() % 3),
                },
                // The generator builds no terms of these sorts.
                Sort::Map(_) => Value::default_of(v.sort()),
            };
            m.insert(v, value);
        }
        if self.uninterpreted {
            let mut entries = BTreeMap::new();
            for _ in 0..c.below(4) {
                let arg = Value::Bv {
                    value: u128::from(c.byte() % 8),
                    width: 8,
                };
                entries.insert(
                    vec![arg],
                    Value::Bv {
                        value: u128::from(c.byte()),
                        width: 8,
                    },
                );
            }
            let default = Value::Bv {
                value: u128::from(c.byte()),
                width: 8,
            };
            m.insert_func(func(), FuncInterp { entries, default });
        }
        m
    }
}

pub fn unused(_: USort) {}
