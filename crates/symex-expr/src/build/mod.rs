//! Smart constructors: sort checking, exact constant folding and cheap rewrites.
//!
//! Every constructor goes through [`Term::try_new`]: it checks sorts, folds an operator
//! whose arguments are all constants (with the evaluator's semantics, so folding is exact),
//! puts constants first and orders the arguments of commutative operators, then applies the
//! rewrites of the operator's family (one file each, in the spirit of KLEE's `ExprBuilder`).
//! [`Term::try_new_raw`] builds the node as given, for tests and for callers that want the
//! exact shape.

mod array;
mod bitvec;
mod boolean;
mod int;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::bvsem;
use crate::eval;
use crate::intern;
use crate::sort::{Func, Sort};
use crate::term::{Op, Term};
use crate::typing::{result_sort, SortError};
use crate::value::Value;

fn expect<T>(r: Result<T, SortError>) -> T {
    r.unwrap_or_else(|e| panic!("ill-sorted term: {e}"))
}

impl Term {
    /// `op(args)`, simplified. Leaves other than constants have their own constructors
    /// ([`Term::var`], [`Term::const_array`]).
    pub fn try_new(op: Op, args: &[Term]) -> Result<Term, SortError> {
        let sort = result_sort(&op, args)?;
        Ok(simplify(op, sort, args.to_vec()))
    }

    /// [`Term::new`] taking the arguments by value (no extra handle copies).
    pub(crate) fn new_vec(op: Op, args: Vec<Term>) -> Term {
        let sort = expect(result_sort(&op, &args));
        simplify(op, sort, args)
    }

    /// `op(args)` exactly as given (sort-checked, not simplified).
    pub fn try_new_raw(op: Op, args: &[Term]) -> Result<Term, SortError> {
        let sort = result_sort(&op, args)?;
        Ok(intern::mk(op, sort, args.to_vec()))
    }

    /// [`Term::try_new`] for callers that know the sorts are right.
    ///
    /// # Panics
    /// If the application is ill-sorted.
    pub fn new(op: Op, args: &[Term]) -> Term {
        expect(Term::try_new(op, args))
    }

    /// [`Term::try_new_raw`], panicking on ill-sorted input.
    ///
    /// # Panics
    /// If the application is ill-sorted.
    pub fn new_raw(op: Op, args: &[Term]) -> Term {
        expect(Term::try_new_raw(op, args))
    }

    /// The Boolean constant `b`.
    pub fn bool(b: bool) -> Term {
        intern::mk(Op::BoolConst(b), Sort::Bool, Vec::new())
    }

    /// `true`.
    pub fn tt() -> Term {
        Term::bool(true)
    }

    /// `false`.
    pub fn ff() -> Term {
        Term::bool(false)
    }

    /// The bit-vector constant `value` truncated to `width` bits.
    ///
    /// # Panics
    /// If `width` is not in `1..=128`.
    pub fn bv(value: u128, width: u32) -> Term {
        let sort = Sort::bv(width);
        intern::mk(
            Op::BvConst {
                value: value & bvsem::mask(width),
                width,
            },
            sort,
            Vec::new(),
        )
    }

    /// [`Term::bv`] for a width that comes from input: `None` outside `1..=128`.
    pub fn try_bv(value: u128, width: u32) -> Option<Term> {
        Sort::try_bv(width).map(|_| Term::bv(value, width))
    }

    /// The `width`-bit two's-complement constant `value` (truncated).
    pub fn bv_signed(value: i128, width: u32) -> Term {
        Term::bv(value as u128, width)
    }

    /// The integer constant `value`.
    pub fn int(value: i128) -> Term {
        intern::mk(Op::IntConst(value), Sort::Int, Vec::new())
    }

    /// The variable `name` of sort `sort`. The same name and sort give the same term; the
    /// same name with two sorts gives two variables (give them distinct names for SMT-LIB).
    pub fn var(name: &str, sort: Sort) -> Term {
        intern::mk(Op::Var(Arc::from(name)), sort, Vec::new())
    }

    /// A variable named `prefix!n` with an `n` never used before in this process.
    pub fn fresh_var(prefix: &str, sort: Sort) -> Term {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        Term::var(&format!("{prefix}!{n}"), sort)
    }

    /// The array of sort `sort` holding `element` at every index.
    ///
    /// # Panics
    /// If `sort` is not an array sort with `element`'s sort as element sort.
    pub fn const_array(sort: Sort, element: &Term) -> Term {
        match sort {
            Sort::Array { element: e, .. } if element.sort() == Sort::BitVec(e) => {
                intern::mk(Op::ConstArray, sort, vec![element.clone()])
            }
            Sort::Map(m) if element.sort() == m.element() => {
                intern::mk(Op::ConstArray, sort, vec![element.clone()])
            }
            _ => panic!("constant array of sort {sort} holding {}", element.sort()),
        }
    }

    /// The application `f(args)`.
    ///
    /// # Panics
    /// If the arguments do not match `f`'s signature.
    pub fn apply(f: Func, args: &[Term]) -> Term {
        Term::new(Op::Apply(f), args)
    }

    /// The constant term holding `v` (see [`Value::to_term`]).
    pub fn from_value(v: &Value) -> Option<Term> {
        v.to_term()
    }
}

/// How deep rewrites may nest: a rewrite that builds new terms (an `extract` pushed down a chain of
/// ten thousand `bvadd`s) simplifies them in turn, one stack frame group per level.
const REWRITE_DEPTH_LIMIT: u32 = 256;

thread_local! {
    static REWRITE_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Builds `op(args)` of sort `sort` (already checked), simplifying. Below [`REWRITE_DEPTH_LIMIT`]
/// nested rewrites the term is kept as built (folded, ordered, but not rewritten): the same value,
/// and a bounded stack however deep the input.
pub(crate) fn simplify(op: Op, sort: Sort, mut args: Vec<Term>) -> Term {
    if let Some(t) = fold(&op, sort, &args) {
        return t;
    }
    let depth = REWRITE_DEPTH.with(|d| d.get());
    if depth >= REWRITE_DEPTH_LIMIT {
        if op.is_commutative() && goes_first(&args[1], &args[0]) {
            args.swap(0, 1);
        }
        return intern::mk(op, sort, args);
    }
    REWRITE_DEPTH.with(|d| d.set(depth + 1));
    let t = rewrite(op, sort, args);
    REWRITE_DEPTH.with(|d| d.set(depth));
    t
}

fn rewrite(op: Op, sort: Sort, mut args: Vec<Term>) -> Term {
    if op.is_commutative() && goes_first(&args[1], &args[0]) {
        args.swap(0, 1);
    }
    match op {
        Op::Not | Op::And | Op::Or | Op::Xor | Op::Implies => boolean::build(op, args),
        Op::Ite => ite(args),
        Op::Eq => eq(args),
        Op::IntAdd
        | Op::IntSub
        | Op::IntMul
        | Op::IntNeg
        | Op::IntDiv
        | Op::IntMod
        | Op::IntLe
        | Op::IntLt => int::build(op, args),
        Op::Select | Op::Store => array::build(op, sort, args),
        Op::Apply(_) | Op::Var(_) | Op::ConstArray => intern::mk(op, sort, args),
        Op::BoolConst(_) | Op::BvConst { .. } | Op::IntConst(_) => intern::mk(op, sort, args),
        _ => bitvec::build(op, sort, args),
    }
}

/// Constants first, then creation order: the canonical order of commutative arguments.
fn goes_first(a: &Term, b: &Term) -> bool {
    (!a.is_const(), a.id()) < (!b.is_const(), b.id())
}

/// Exact folding of an interpreted operator over constant arguments.
fn fold(op: &Op, sort: Sort, args: &[Term]) -> Option<Term> {
    if args.is_empty() || matches!(op, Op::ConstArray | Op::Apply(_)) {
        return None;
    }
    if !args.iter().all(Term::is_const) {
        return None;
    }
    let values: Vec<Value> = args.iter().map(const_value).collect();
    // Integer overflow beyond i128 or division by zero: keep the term symbolic.
    eval::apply(op, sort, &values).ok()?.to_term()
}

pub(crate) fn const_value(t: &Term) -> Value {
    match t.op() {
        Op::BoolConst(b) => Value::Bool(*b),
        Op::BvConst { value, width } => Value::Bv {
            value: *value,
            width: *width,
        },
        Op::IntConst(i) => Value::Int(*i),
        op => unreachable!("const_value of {op:?}"),
    }
}

fn ite(args: Vec<Term>) -> Term {
    let [c, t, e] = <[Term; 3]>::try_from(args).expect("ite has three arguments");
    if let Some(b) = c.as_bool() {
        return if b { t } else { e };
    }
    if t == e {
        return t;
    }
    if let Op::Not = c.op() {
        return c.arg(0).ite(&e, &t);
    }
    if t.sort() == Sort::Bool {
        return boolean::ite_bool(&c, &t, &e);
    }
    // ite(c, ite(c, a, b), e) = ite(c, a, e) and its mirror.
    if t.op() == &Op::Ite && t.arg(0) == &c {
        return c.ite(t.arg(1), &e);
    }
    if e.op() == &Op::Ite && e.arg(0) == &c {
        return c.ite(&t, e.arg(2));
    }
    let sort = t.sort();
    intern::mk(Op::Ite, sort, vec![c, t, e])
}

fn eq(args: Vec<Term>) -> Term {
    let (a, b) = (&args[0], &args[1]);
    if a == b {
        return Term::tt();
    }
    match a.sort() {
        Sort::Bool => boolean::eq(args),
        Sort::BitVec(_) => bitvec::eq(args),
        Sort::Int => int::eq(args),
        _ => intern::mk(Op::Eq, Sort::Bool, args),
    }
}
