//! Expressions on concrete values: field reads need the location among the readable
//! permissions, pure calls run their bodies with the footprint of their precondition, `old`
//! reads the pre-state, `opening`/`using` check what they name and then evaluate their body.
use super::heap::{field_key, Heap, Loc, Perms, Value};
use super::{text, RunConfig, Stop, Violation, R};
use crate::ir::{BinOp, Call, Expr, ExprKind, Program, Span, UnOp};
use std::collections::HashMap;

pub(crate) type Store = HashMap<String, Value>;

/// The pre-state of a mutator activation: `old(e)` and `untouched` read it.
#[derive(Clone, Debug)]
pub(crate) struct PreState {
    pub heap: Heap,
    pub perms: Perms,
}

/// What an expression is evaluated against.
pub(crate) struct View<'a> {
    pub store: &'a Store,
    pub heap: &'a Heap,
    /// The locations that may be read.
    pub readable: &'a Perms,
    pub old: Option<&'a PreState>,
    /// Whose obligation a failure here is.
    pub member: &'a str,
}

impl<'a> View<'a> {
    /// The same view with another store (a callee's or a predicate's parameters).
    pub fn with_store<'b>(&'b self, store: &'b Store) -> View<'b> {
        View {
            store,
            heap: self.heap,
            readable: self.readable,
            old: self.old,
            member: self.member,
        }
    }
}

/// A pure call on the stack: method, receiver, arguments and footprint. The heap does not
/// change while an expression is evaluated, so the same entry twice is a call that never ends.
type PureFrame = (String, String, Value, Vec<Value>, Perms);
/// A predicate instance being checked, with how many permissions were left when it began.
type PredFrame = (String, String, Value, Vec<Value>, usize);

/// The program and the run's counters and stacks (everything but the heap and activations).
pub(crate) struct Evaluator<'p> {
    pub program: &'p Program,
    pub src: &'p str,
    pub config: RunConfig,
    pub steps: u64,
    pub pure_stack: Vec<PureFrame>,
    pub pred_stack: Vec<PredFrame>,
}

impl<'p> Evaluator<'p> {
    pub fn text(&self, span: Span) -> String {
        text(self.src, span)
    }

    pub fn violation(
        &self,
        member: &str,
        check: impl Into<String>,
        message: impl Into<String>,
        span: Span,
    ) -> Stop {
        Stop::Violation(Box::new(Violation {
            member: member.to_string(),
            check: check.into(),
            message: message.into(),
            span,
            notes: Vec::new(),
        }))
    }

    /// Counts one step; stops the run when the budget is spent.
    pub fn step(&mut self, span: Span) -> R<()> {
        self.steps += 1;
        if self.steps > self.config.max_steps {
            return Err(Stop::Limit(
                format!(
                    "step limit reached ({} statements and pure calls): the run may not terminate",
                    self.config.max_steps
                ),
                span,
            ));
        }
        Ok(())
    }

    pub fn eval(&mut self, v: &View, e: &Expr) -> R<Value> {
        match &e.kind {
            ExprKind::Null => Ok(Value::Null),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Int(i) => Ok(Value::Int(*i)),
            ExprKind::Var(x, sort) => {
                Ok(v.store.get(x).cloned().unwrap_or(Value::default_of(*sort)))
            }
            ExprKind::Field(obj, f) => {
                let o = self.object(v, obj, "read a field of")?;
                let loc = Loc::Field(o, field_key(f));
                self.readable(v, &loc, e.span, "read")?;
                Ok(v.heap
                    .field(o, &field_key(f))
                    .cloned()
                    .unwrap_or(Value::Null))
            }
            ExprKind::PureCall(call) => self.pure_call(v, call),
            ExprKind::Index(arr, idx, _) => {
                let a = self.object(v, arr, "index")?;
                let i = self.int(v, idx)?;
                self.readable(v, &Loc::Elems(a), e.span, "read")?;
                let items = v.heap.array(a).map(|x| x.items.clone()).unwrap_or_default();
                match usize::try_from(i).ok().and_then(|i| items.get(i).cloned()) {
                    Some(x) => Ok(x),
                    None => Err(self.violation(
                        v.member,
                        "array bounds",
                        format!(
                            "index {i} is out of bounds of `{}` (length {})",
                            self.text(arr.span),
                            items.len()
                        ),
                        e.span,
                    )),
                }
            }
            ExprKind::Length(arr) => {
                let a = self.object(v, arr, "take the length of")?;
                let n = v.heap.array(a).map_or(0, |x| x.items.len());
                Ok(Value::Int(n as i128))
            }
            ExprKind::Unary(UnOp::Not, x) => Ok(Value::Bool(!self.boolean(v, x)?)),
            ExprKind::Unary(UnOp::Neg, x) => {
                let i = self.int(v, x)?;
                self.checked(i.checked_neg(), e.span).map(Value::Int)
            }
            ExprKind::Binary(BinOp::And, l, r) => {
                Ok(Value::Bool(self.boolean(v, l)? && self.boolean(v, r)?))
            }
            ExprKind::Binary(BinOp::Or, l, r) => {
                Ok(Value::Bool(self.boolean(v, l)? || self.boolean(v, r)?))
            }
            ExprKind::Binary(op, l, r) => {
                let a = self.eval(v, l)?;
                let b = self.eval(v, r)?;
                self.binary(v, *op, a, b, e)
            }
            ExprKind::Cond(c, a, b) => {
                if self.boolean(v, c)? {
                    self.eval(v, a)
                } else {
                    self.eval(v, b)
                }
            }
            ExprKind::Old(x) => {
                let Some(old) = v.old else {
                    return Err(Stop::Limit("`old` outside a postcondition".into(), e.span));
                };
                let pre = View {
                    store: v.store,
                    heap: &old.heap,
                    readable: &old.perms,
                    old: None,
                    member: v.member,
                };
                self.eval(&pre, x)
            }
            ExprKind::Opening(call, body) => {
                self.predicate_holds(v, call, "`opening`")?;
                self.eval(v, body)
            }
            ExprKind::Using(call, body) => {
                // `using` only adds `call = body` as a fact, true at run time; the call's
                // precondition must hold for it to mean anything.
                self.pure_call(v, call)?;
                self.eval(v, body)
            }
        }
    }

    fn binary(&mut self, v: &View, op: BinOp, a: Value, b: Value, e: &Expr) -> R<Value> {
        if let BinOp::Eq | BinOp::Ne = op {
            return Ok(Value::Bool((a == b) == (op == BinOp::Eq)));
        }
        let (Value::Int(x), Value::Int(y)) = (&a, &b) else {
            return Err(Stop::Limit(
                format!("ill-typed operands {a} and {b}"),
                e.span,
            ));
        };
        let (x, y) = (*x, *y);
        if matches!(op, BinOp::Div | BinOp::Mod) && y == 0 {
            return Err(self.violation(
                v.member,
                "division by zero",
                format!("`{}` divides by zero", self.text(e.span)),
                e.span,
            ));
        }
        // Division is Euclidean, as SMT-LIB's `div`/`mod` on which the verifier reasons.
        let int = |r: Option<i128>| r.map(Value::Int);
        let r = match op {
            BinOp::Add => int(x.checked_add(y)),
            BinOp::Sub => int(x.checked_sub(y)),
            BinOp::Mul => int(x.checked_mul(y)),
            BinOp::Div => int(x.checked_div_euclid(y)),
            BinOp::Mod => int(x.checked_rem_euclid(y)),
            BinOp::Lt => Some(Value::Bool(x < y)),
            BinOp::Le => Some(Value::Bool(x <= y)),
            BinOp::Gt => Some(Value::Bool(x > y)),
            BinOp::Ge => Some(Value::Bool(x >= y)),
            _ => None,
        };
        self.checked(r, e.span)
    }

    fn checked<T>(&self, r: Option<T>, span: Span) -> R<T> {
        r.ok_or_else(|| {
            Stop::Limit(
                "integer beyond the 128-bit range the executor supports".into(),
                span,
            )
        })
    }

    pub fn boolean(&mut self, v: &View, e: &Expr) -> R<bool> {
        match self.eval(v, e)? {
            Value::Bool(b) => Ok(b),
            other => Err(Stop::Limit(
                format!("expected a boolean, got {other}"),
                e.span,
            )),
        }
    }

    pub fn int(&mut self, v: &View, e: &Expr) -> R<i128> {
        match self.eval(v, e)? {
            Value::Int(i) => Ok(i),
            other => Err(Stop::Limit(
                format!("expected an integer, got {other}"),
                e.span,
            )),
        }
    }

    /// The object `e` refers to; `null` is a violation (every access needs a non-null target).
    pub fn object(&mut self, v: &View, e: &Expr, what: &str) -> R<u64> {
        match self.eval(v, e)? {
            Value::Ref(o) => Ok(o),
            _ => Err(self.violation(
                v.member,
                "null dereference",
                format!("cannot {what} `{}`: it is null", self.text(e.span)),
                e.span,
            )),
        }
    }

    pub fn readable(&self, v: &View, loc: &Loc, span: Span, what: &str) -> R<()> {
        if v.readable.contains(loc) {
            return Ok(());
        }
        Err(self.violation(
            v.member,
            "permission",
            format!(
                "no permission to {what} `{}` ({loc}): the activation does not hold it",
                self.text(span)
            ),
            span,
        ))
    }

    /// The receiver and arguments of a call.
    pub fn call_values(&mut self, v: &View, call: &Call) -> R<(u64, Vec<Value>)> {
        let recv = self.object(v, &call.recv, "call a method on")?;
        let mut args = Vec::with_capacity(call.args.len());
        for a in &call.args {
            args.push(self.eval(v, a)?);
        }
        Ok((recv, args))
    }

    /// A pure method call: its precondition must hold in the caller's readable locations; its
    /// body runs with the precondition's footprint.
    fn pure_call(&mut self, v: &View, call: &Call) -> R<Value> {
        self.step(call.span)?;
        let (recv, args) = self.call_values(v, call)?;
        let program = self.program;
        let Some(p) = program.pure(&call.class, &call.method) else {
            return Err(Stop::Limit(
                format!("no pure method `{}.{}`", call.class, call.method),
                call.span,
            ));
        };
        let store = bind(Value::Ref(recv), &p.params, &args);
        let name = format!("{}.{}", p.class, p.name);
        let check = format!("precondition of `{name}`");
        let footprint = self.footprint(&v.with_store(&store), &p.pre, &check, call.span)?;
        let frame = (
            p.class.clone(),
            p.name.clone(),
            Value::Ref(recv),
            args,
            footprint.clone(),
        );
        if self.pure_stack.contains(&frame) {
            return Err(self.violation(
                &name,
                "termination (§3.6)",
                format!(
                    "pure method `{name}` does not terminate: `{}` calls it again with the same \
                     receiver, arguments and footprint in the same heap",
                    self.text(call.span)
                ),
                call.span,
            ));
        }
        if self.pure_stack.len() >= self.config.max_depth {
            return Err(Stop::Limit(
                format!("pure calls nested deeper than {}", self.config.max_depth),
                call.span,
            ));
        }
        self.pure_stack.push(frame);
        let body_view = View {
            store: &store,
            heap: v.heap,
            readable: &footprint,
            old: None,
            member: &name,
        };
        let r = self.eval(&body_view, &p.body);
        self.pure_stack.pop();
        r
    }
}

/// The store of a callee: `this` and the parameters.
pub(crate) fn bind(this: Value, params: &[(String, crate::ir::Sort)], args: &[Value]) -> Store {
    let mut store = Store::new();
    store.insert("this".into(), this);
    for ((x, _), a) in params.iter().zip(args) {
        store.insert(x.clone(), a.clone());
    }
    store
}
