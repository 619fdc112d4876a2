//! Translation of terms to Z3 ASTs, cached per context by term id.

use rustc_hash::FxHashMap;
use std::time::Instant;
use symex_expr::{visit, Func, Op, Sort, Term, USort};
use z3::ast::{Array, Bool, Dynamic, Int, BV};

/// Term ids are never reused, so a cached entry can never be mistaken for a new term; the
/// cache is cleared when it grows past this many entries.
const CACHE_LIMIT: usize = 1 << 20;

/// Nodes translated between two looks at the clock.
const CLOCK_EVERY: u32 = 1024;

#[derive(Default)]
pub(crate) struct Translator {
    cache: FxHashMap<u64, Dynamic>,
    funcs: FxHashMap<Func, z3::FuncDecl>,
    usorts: FxHashMap<USort, z3::Sort>,
    /// When the query being built must be finished: building a deep query is part of its time, so the
    /// solver's limit (and `--max-time`, which lowers it) covers it too.
    pub(crate) deadline: Option<Instant>,
    expired: bool,
    built: u32,
}

impl Translator {
    pub(crate) fn clear(&mut self) {
        self.cache.clear();
    }

    pub(crate) fn sort(&mut self, s: Sort) -> z3::Sort {
        match s {
            Sort::Bool => z3::Sort::bool(),
            Sort::BitVec(w) => z3::Sort::bitvector(w),
            Sort::Int => z3::Sort::int(),
            Sort::Array { index, element } => {
                z3::Sort::array(&z3::Sort::bitvector(index), &z3::Sort::bitvector(element))
            }
            Sort::Map(m) => {
                let (index, element) = (self.sort(m.index()), self.sort(m.element()));
                z3::Sort::array(&index, &element)
            }
            Sort::Uninterpreted(u) => self
                .usorts
                .entry(u)
                .or_insert_with(|| z3::Sort::uninterpreted(z3::Symbol::String(u.name().into())))
                .clone(),
        }
    }

    pub(crate) fn func(&mut self, f: Func) -> &z3::FuncDecl {
        if !self.funcs.contains_key(&f) {
            let domain: Vec<z3::Sort> = f.domain().iter().map(|s| self.sort(*s)).collect();
            let refs: Vec<&z3::Sort> = domain.iter().collect();
            let range = self.sort(f.range());
            let d = z3::FuncDecl::new(f.name(), &refs, &range);
            self.funcs.insert(f, d);
        }
        &self.funcs[&f]
    }

    /// The Z3 AST of `t` (no deadline: for the leaves a model is read from).
    pub(crate) fn translate(&mut self, t: &Term) -> Dynamic {
        let deadline = self.deadline.take();
        let d = self.build(t).expect("no deadline");
        self.deadline = deadline;
        d
    }

    /// The Z3 AST of `t`, or `None` when the deadline passed while building it (the nodes built so far
    /// stay cached).
    fn build(&mut self, t: &Term) -> Option<Dynamic> {
        if let Some(d) = self.cache.get(&t.id()) {
            return Some(d.clone());
        }
        if self.cache.len() > CACHE_LIMIT {
            self.cache.clear();
        }
        self.expired = false;
        visit::postorder_filtered(
            std::slice::from_ref(t),
            self,
            |tr, n| !tr.expired && !tr.cache.contains_key(&n.id()),
            |tr, n| {
                if tr.expired {
                    return;
                }
                tr.built = tr.built.wrapping_add(1);
                if tr.built % CLOCK_EVERY == 0 && tr.deadline.is_some_and(|d| Instant::now() >= d) {
                    tr.expired = true;
                    return;
                }
                let args: Vec<Dynamic> =
                    n.args().iter().map(|a| tr.cache[&a.id()].clone()).collect();
                let d = tr.node(n, &args);
                tr.cache.insert(n.id(), d);
            },
        );
        if self.expired {
            return None;
        }
        Some(self.cache[&t.id()].clone())
    }

    /// The Z3 Boolean of `t`, or `None` past the deadline.
    pub(crate) fn translate_bool(&mut self, t: &Term) -> Option<Bool> {
        Some(self.build(t)?.as_bool().expect("Boolean term"))
    }

    fn node(&mut self, t: &Term, a: &[Dynamic]) -> Dynamic {
        let b = |i: usize| a[i].as_bool().expect("Boolean argument");
        let bv = |i: usize| a[i].as_bv().expect("bit-vector argument");
        let int = |i: usize| a[i].as_int().expect("integer argument");
        let arr = |i: usize| a[i].as_array().expect("array argument");
        match t.op() {
            Op::BoolConst(x) => Bool::from_bool(*x).into(),
            Op::BvConst { value, width } => bv_numeral(*value, *width).into(),
            Op::IntConst(i) => Int::from_i128(*i).into(),
            Op::Var(name) => Dynamic::new_const(name.as_ref(), &self.sort(t.sort())),
            Op::ConstArray => {
                let index = match t.sort() {
                    Sort::Array { index, .. } => z3::Sort::bitvector(index),
                    Sort::Map(m) => self.sort(m.index()),
                    _ => unreachable!("constant array of a non-array sort"),
                };
                Array::const_array(&index, &a[0]).into()
            }
            Op::Not => b(0).not().into(),
            Op::And => Bool::and(&[b(0), b(1)]).into(),
            Op::Or => Bool::or(&[b(0), b(1)]).into(),
            Op::Xor => b(0).xor(b(1)).into(),
            Op::Implies => b(0).implies(b(1)).into(),
            Op::Ite => b(0).ite(&a[1], &a[2]),
            Op::Eq => a[0].eq(a[1].clone()).into(),
            Op::BvNot => bv(0).bvnot().into(),
            Op::BvNeg => bv(0).bvneg().into(),
            Op::BvAdd => bv(0).bvadd(bv(1)).into(),
            Op::BvSub => bv(0).bvsub(bv(1)).into(),
            Op::BvMul => bv(0).bvmul(bv(1)).into(),
            Op::BvUdiv => bv(0).bvudiv(bv(1)).into(),
            Op::BvSdiv => bv(0).bvsdiv(bv(1)).into(),
            Op::BvUrem => bv(0).bvurem(bv(1)).into(),
            Op::BvSrem => bv(0).bvsrem(bv(1)).into(),
            Op::BvSmod => bv(0).bvsmod(bv(1)).into(),
            Op::BvAnd => bv(0).bvand(bv(1)).into(),
            Op::BvOr => bv(0).bvor(bv(1)).into(),
            Op::BvXor => bv(0).bvxor(bv(1)).into(),
            Op::BvShl => bv(0).bvshl(bv(1)).into(),
            Op::BvLshr => bv(0).bvlshr(bv(1)).into(),
            Op::BvAshr => bv(0).bvashr(bv(1)).into(),
            Op::BvUlt => bv(0).bvult(bv(1)).into(),
            Op::BvUle => bv(0).bvule(bv(1)).into(),
            Op::BvSlt => bv(0).bvslt(bv(1)).into(),
            Op::BvSle => bv(0).bvsle(bv(1)).into(),
            Op::Concat => bv(0).concat(bv(1)).into(),
            Op::Extract { hi, lo } => bv(0).extract(*hi, *lo).into(),
            Op::ZeroExt(n) => bv(0).zero_ext(*n).into(),
            Op::SignExt(n) => bv(0).sign_ext(*n).into(),
            Op::IntAdd => Int::add(&[int(0), int(1)]).into(),
            Op::IntSub => Int::sub(&[int(0), int(1)]).into(),
            Op::IntMul => Int::mul(&[int(0), int(1)]).into(),
            Op::IntNeg => int(0).unary_minus().into(),
            Op::IntDiv => int(0).div(int(1)).into(),
            Op::IntMod => int(0).modulo(int(1)).into(),
            Op::IntLe => int(0).le(int(1)).into(),
            Op::IntLt => int(0).lt(int(1)).into(),
            Op::Select => arr(0).select(&a[1]),
            Op::Store => arr(0).store(&a[1], &a[2]).into(),
            Op::Apply(f) => {
                let decl = self.func(*f);
                let refs: Vec<&dyn z3::ast::Ast> =
                    a.iter().map(|d| d as &dyn z3::ast::Ast).collect();
                decl.apply(&refs)
            }
        }
    }
}

fn bv_numeral(value: u128, width: u32) -> BV {
    match u64::try_from(value) {
        Ok(v) => BV::from_u64(v, width),
        Err(_) => BV::from_str(width, &value.to_string()).expect("decimal numeral"),
    }
}
