//! Evaluation of terms under a model (an assignment to variables and functions), with exact
//! SMT-LIB semantics.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::bvsem;
use crate::sort::{Func, Sort};
use crate::term::{Op, Term};
use crate::value::{MapValue, Value};

/// Why a term has no value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EvalError {
    /// An integer result left the `i128` range this evaluator computes in.
    IntOverflow,
    /// Integer `div` or `mod` by zero: SMT-LIB leaves it unspecified.
    IntDivByZero,
    /// A value of the wrong sort was given for a variable or a function result.
    SortMismatch(String),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::IntOverflow => write!(f, "integer overflow beyond 128 bits"),
            EvalError::IntDivByZero => write!(f, "integer division by zero (unspecified)"),
            EvalError::SortMismatch(m) => write!(f, "sort mismatch: {m}"),
        }
    }
}

impl std::error::Error for EvalError {}

/// The interpretation of an uninterpreted function: a finite table and a default.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FuncInterp {
    /// Argument tuples with their results.
    pub entries: BTreeMap<Vec<Value>, Value>,
    /// The result for every other argument tuple.
    pub default: Value,
}

/// An assignment of values to variables and of interpretations to functions.
///
/// Variables and functions the model does not mention take [`Value::default_of`] their sort
/// (model completion), so a model found for some constraints can be tried on others.
#[derive(Clone, Default, PartialEq, Debug)]
pub struct Model {
    /// The assigned variables, sorted by term id. Every waiting state of an exploration keeps a model:
    /// a sorted vector holds exactly its entries (after [`Model::shrink_to_fit`]), where a hash table
    /// holds a power of two of 48-byte buckets and their control bytes.
    vars: Vec<(Term, Value)>,
    /// The interpreted functions; boxed, and absent when there are none (the models of explorations,
    /// one per waiting state, interpret no function).
    funcs: Option<Box<FxHashMap<Func, FuncInterp>>>,
}

impl Model {
    /// The empty model (everything takes its default).
    pub fn new() -> Model {
        Model::default()
    }

    /// Assigns `value` to the variable `var`.
    ///
    /// # Panics
    /// If `var` is not a variable or `value` has another sort.
    pub fn insert(&mut self, var: &Term, value: Value) {
        assert!(
            var.as_var().is_some(),
            "model entry for a non-variable {var}"
        );
        assert_eq!(var.sort(), value.sort(), "model value of the wrong sort");
        // Variables usually come in id order (`free_vars` sorts them): then this is a push.
        let after_last = match self.vars.last() {
            Some((t, _)) => t.id() < var.id(),
            None => true,
        };
        let at = if after_last {
            Err(self.vars.len())
        } else {
            self.search(var)
        };
        match at {
            Ok(i) => self.vars[i].1 = value,
            Err(i) => self.vars.insert(i, (var.clone(), value)),
        }
    }

    /// Where `var` is among the assigned variables, or would be inserted.
    fn search(&self, var: &Term) -> Result<usize, usize> {
        self.vars.binary_search_by_key(&var.id(), |(t, _)| t.id())
    }

    /// Gives back the room the model grew into but does not use: call it once the model is complete
    /// and about to be kept (a state's model, a cached answer).
    pub fn shrink_to_fit(&mut self) {
        self.vars.shrink_to_fit();
    }

    /// Sets the interpretation of `f`.
    pub fn insert_func(&mut self, f: Func, interp: FuncInterp) {
        self.funcs
            .get_or_insert_with(Default::default)
            .insert(f, interp);
    }

    /// The value the model gives to `var` explicitly.
    pub fn get(&self, var: &Term) -> Option<&Value> {
        self.search(var).ok().map(|i| &self.vars[i].1)
    }

    /// The value of `var`, completed with the default of its sort.
    pub fn value_of(&self, var: &Term) -> Value {
        self.get(var)
            .cloned()
            .unwrap_or_else(|| Value::default_of(var.sort()))
    }

    /// The interpretation of `f`, if the model gives one.
    pub fn func(&self, f: Func) -> Option<&FuncInterp> {
        self.funcs.as_deref()?.get(&f)
    }

    /// The explicitly assigned variables, in creation order of the variable terms.
    pub fn vars(&self) -> Vec<(&Term, &Value)> {
        self.vars.iter().map(|(t, v)| (t, v)).collect()
    }

    /// The interpreted functions, by name.
    pub fn funcs(&self) -> Vec<(Func, &FuncInterp)> {
        let mut v: Vec<_> = self
            .funcs
            .iter()
            .flat_map(|m| m.iter())
            .map(|(f, i)| (*f, i))
            .collect();
        v.sort_by_key(|(f, _)| *f);
        v
    }

    /// Number of explicitly assigned variables.
    pub fn len(&self) -> usize {
        self.vars.len()
    }

    /// Whether the model assigns nothing explicitly.
    pub fn is_empty(&self) -> bool {
        self.vars.is_empty() && self.funcs.is_none()
    }

    /// Adds every assignment of `other` (which wins on conflicts).
    pub fn extend(&mut self, other: &Model) {
        for (k, v) in &other.vars {
            self.insert(k, v.clone());
        }
        for (k, v) in other.funcs.iter().flat_map(|m| m.iter()) {
            self.insert_func(*k, v.clone());
        }
    }

    /// The value of `t` under this model.
    pub fn eval(&self, t: &Term) -> Result<Value, EvalError> {
        with_memo(|memo| self.eval_memo(t, memo))
    }

    /// The value of a Boolean term.
    ///
    /// # Panics
    /// If `t` is not Boolean.
    pub fn eval_bool(&self, t: &Term) -> Result<bool, EvalError> {
        assert!(
            t.sort().is_bool(),
            "eval_bool of a term of sort {}",
            t.sort()
        );
        Ok(self
            .eval(t)?
            .as_bool()
            .expect("Boolean term has a Boolean value"))
    }

    /// Whether every constraint evaluates to true (sharing work between them).
    pub fn satisfies(&self, constraints: &[Term]) -> Result<bool, EvalError> {
        with_memo(|memo| {
            for c in constraints {
                if self.eval_memo(c, memo)? != Value::Bool(true) {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    fn eval_memo(&self, t: &Term, memo: &mut FxHashMap<u64, Value>) -> Result<Value, EvalError> {
        if let Some(v) = memo.get(&t.id()) {
            return Ok(v.clone());
        }
        // Iterative post-order with the memo as the visited set; one argument buffer reused
        // for every node (this loop is the counterexample cache's inner loop).
        // Inline buffers: a path condition's terms are small, and an evaluation is asked for at nearly
        // every branch (the counterexample cache, the bounds, a model kept by its state).
        let mut stack: SmallVec<[(&Term, bool); 32]> = smallvec::smallvec![(t, false)];
        let mut args: SmallVec<[Value; 4]> = SmallVec::new();
        while let Some((n, expanded)) = stack.pop() {
            if expanded && n.op() == &Op::Store {
                let v = fold_stores(n, memo)?;
                memo.insert(n.id(), v);
                continue;
            }
            if expanded {
                args.clear();
                args.extend(n.args().iter().map(|a| memo[&a.id()].clone()));
                let v = self.eval_node(n, &args)?;
                memo.insert(n.id(), v);
                continue;
            }
            if memo.contains_key(&n.id()) {
                continue;
            }
            stack.push((n, true));
            if n.op() == &Op::Store {
                // A chain of stores (a large object's bytes) is evaluated at its top in one pass: a
                // value per intermediate store would copy the array once per store.
                let mut cur = n;
                loop {
                    for a in [cur.arg(2), cur.arg(1)] {
                        if !memo.contains_key(&a.id()) {
                            stack.push((a, false));
                        }
                    }
                    cur = cur.arg(0);
                    if cur.op() != &Op::Store || memo.contains_key(&cur.id()) {
                        break;
                    }
                }
                if !memo.contains_key(&cur.id()) {
                    stack.push((cur, false));
                }
                continue;
            }
            for a in n.args().iter().rev() {
                if !memo.contains_key(&a.id()) {
                    stack.push((a, false));
                }
            }
        }
        Ok(memo[&t.id()].clone())
    }

    fn eval_node(&self, n: &Term, args: &[Value]) -> Result<Value, EvalError> {
        match n.op() {
            Op::Var(_) => Ok(self.value_of(n)),
            Op::Apply(f) => Ok(self.apply_func(*f, args)),
            op => apply(op, n.sort(), args),
        }
    }

    fn apply_func(&self, f: Func, args: &[Value]) -> Value {
        match self.func(f) {
            Some(interp) => interp
                .entries
                .get(args)
                .cloned()
                .unwrap_or_else(|| interp.default.clone()),
            None => Value::default_of(f.range()),
        }
    }
}

/// Sized for typical path-condition terms, so that small evaluations never rehash.
fn memo_table() -> FxHashMap<u64, Value> {
    FxHashMap::with_capacity_and_hasher(64, Default::default())
}

/// Memo tables grown past this many entries are not kept for the next evaluation.
const KEPT_MEMO: usize = 1 << 12;

thread_local! {
    /// The memo table of the last evaluation on this thread, emptied, for the next one: evaluations are
    /// frequent and most are small, and a fresh table per evaluation was an allocation each.
    static SPARE_MEMO: std::cell::Cell<Option<FxHashMap<u64, Value>>> =
        const { std::cell::Cell::new(None) };
}

/// Runs `f` with an empty memo table (the thread's spare one when it is free; an evaluation inside
/// another gets a fresh one).
fn with_memo<R>(f: impl FnOnce(&mut FxHashMap<u64, Value>) -> R) -> R {
    let mut memo = SPARE_MEMO.take().unwrap_or_else(memo_table);
    let r = f(&mut memo);
    if memo.capacity() <= KEPT_MEMO {
        memo.clear();
        SPARE_MEMO.set(Some(memo));
    }
    r
}

/// Applies an interpreted operator to argument values (`Var` and `Apply` need a model and
/// are not handled here). `sort` is the result sort.
/// The value of the store chain topped by `top`, whose indices, elements and base (the first array
/// down the chain that is not a store or already has a value) are in `memo`: the base copied once and
/// every store applied to the copy, bottom first.
fn fold_stores(top: &Term, memo: &FxHashMap<u64, Value>) -> Result<Value, EvalError> {
    let mut chain = vec![top];
    let mut cur = top.arg(0);
    while cur.op() == &Op::Store && !memo.contains_key(&cur.id()) {
        chain.push(cur);
        cur = cur.arg(0);
    }
    let mut acc = memo[&cur.id()].clone();
    for s in chain.iter().rev() {
        let (i, e) = (&memo[&s.arg(1).id()], &memo[&s.arg(2).id()]);
        let in_place = match (&mut acc, i, e) {
            (Value::Array(a), Value::Bv { value: i, .. }, Value::Bv { value: e, .. }) => {
                Arc::make_mut(a).set(*i, *e);
                true
            }
            (Value::Map(m), _, _) => {
                Arc::make_mut(m).set(i.clone(), e.clone());
                true
            }
            _ => false,
        };
        if !in_place {
            acc = apply(&Op::Store, s.sort(), &[acc, i.clone(), e.clone()])?;
        }
    }
    Ok(acc)
}

pub fn apply(op: &Op, sort: Sort, args: &[Value]) -> Result<Value, EvalError> {
    use Value::{Bool, Bv, Int};
    let b = |i: usize| args[i].as_bool().expect("Boolean argument");
    let u = |i: usize| args[i].as_bv().expect("bit-vector argument");
    let i = |k: usize| args[k].as_int().expect("integer argument");
    let w = match (sort, args.first()) {
        (Sort::BitVec(w), _) => w,
        (_, Some(Bv { width, .. })) => *width,
        _ => 0,
    };
    let bv = |value: u128| Bv { value, width: w };
    let int = |v: Option<i128>| v.map(Int).ok_or(EvalError::IntOverflow);
    Ok(match op {
        Op::BoolConst(c) => Bool(*c),
        Op::BvConst { value, width } => Bv {
            value: *value,
            width: *width,
        },
        Op::IntConst(c) => Int(*c),
        Op::Var(name) => {
            return Err(EvalError::SortMismatch(format!(
                "variable {name} evaluated without a model"
            )))
        }
        Op::Apply(f) => {
            return Err(EvalError::SortMismatch(format!(
                "function {} applied without a model",
                f.name()
            )))
        }
        Op::ConstArray => {
            if let Sort::Map(m) = sort {
                return Ok(Value::Map(Arc::new(MapValue::constant(m, args[0].clone()))));
            }
            let Sort::Array { index, element } = sort else {
                unreachable!("constant array of a non-array sort")
            };
            Value::Array(Arc::new(crate::value::ArrayValue {
                index_width: index,
                element_width: element,
                default: u(0),
                entries: BTreeMap::new(),
            }))
        }
        Op::Not => Bool(!b(0)),
        Op::And => Bool(b(0) && b(1)),
        Op::Or => Bool(b(0) || b(1)),
        Op::Xor => Bool(b(0) != b(1)),
        Op::Implies => Bool(!b(0) || b(1)),
        Op::Ite => {
            if b(0) {
                args[1].clone()
            } else {
                args[2].clone()
            }
        }
        Op::Eq => Bool(args[0] == args[1]),
        Op::BvNot => bv(!u(0) & bvsem::mask(w)),
        Op::BvNeg => bv(bvsem::neg(u(0), w)),
        Op::BvAdd => bv(bvsem::add(u(0), u(1), w)),
        Op::BvSub => bv(bvsem::sub(u(0), u(1), w)),
        Op::BvMul => bv(bvsem::mul(u(0), u(1), w)),
        Op::BvUdiv => bv(bvsem::udiv(u(0), u(1), w)),
        Op::BvSdiv => bv(bvsem::sdiv(u(0), u(1), w)),
        Op::BvUrem => bv(bvsem::urem(u(0), u(1), w)),
        Op::BvSrem => bv(bvsem::srem(u(0), u(1), w)),
        Op::BvSmod => bv(bvsem::smod(u(0), u(1), w)),
        Op::BvAnd => bv(u(0) & u(1)),
        Op::BvOr => bv(u(0) | u(1)),
        Op::BvXor => bv(u(0) ^ u(1)),
        Op::BvShl => bv(bvsem::shl(u(0), u(1), w)),
        Op::BvLshr => bv(bvsem::lshr(u(0), u(1), w)),
        Op::BvAshr => bv(bvsem::ashr(u(0), u(1), w)),
        Op::BvUlt => Bool(u(0) < u(1)),
        Op::BvUle => Bool(u(0) <= u(1)),
        Op::BvSlt => Bool(bvsem::slt(u(0), u(1), arg_width(&args[0]))),
        Op::BvSle => Bool(bvsem::sle(u(0), u(1), arg_width(&args[0]))),
        Op::Concat => bv(bvsem::concat(u(0), u(1), arg_width(&args[1]))),
        Op::Extract { hi, lo } => bv(bvsem::extract(u(0), *hi, *lo)),
        Op::ZeroExt(_) => bv(u(0)),
        Op::SignExt(n) => bv(bvsem::sext(u(0), arg_width(&args[0]), *n)),
        Op::IntAdd => int(i(0).checked_add(i(1)))?,
        Op::IntSub => int(i(0).checked_sub(i(1)))?,
        Op::IntMul => int(i(0).checked_mul(i(1)))?,
        Op::IntNeg => int(i(0).checked_neg())?,
        Op::IntDiv => {
            if i(1) == 0 {
                return Err(EvalError::IntDivByZero);
            }
            int(i(0).checked_div_euclid(i(1)))?
        }
        Op::IntMod => {
            if i(1) == 0 {
                return Err(EvalError::IntDivByZero);
            }
            int(i(0).checked_rem_euclid(i(1)))?
        }
        Op::IntLe => Bool(i(0) <= i(1)),
        Op::IntLt => Bool(i(0) < i(1)),
        Op::Select => match &args[0] {
            Value::Array(a) => Bv {
                value: a.get(u(1)),
                width: a.element_width,
            },
            Value::Map(a) => a.get(&args[1]),
            v => return Err(EvalError::SortMismatch(format!("select from {v}"))),
        },
        Op::Store => match &args[0] {
            Value::Array(a) => Value::Array(Arc::new(a.with(u(1), u(2)))),
            Value::Map(a) => Value::Map(Arc::new(a.with(args[1].clone(), args[2].clone()))),
            v => return Err(EvalError::SortMismatch(format!("store into {v}"))),
        },
    })
}

fn arg_width(v: &Value) -> u32 {
    match v {
        Value::Bv { width, .. } => *width,
        _ => 0,
    }
}
