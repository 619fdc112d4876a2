//! Statements and mutator calls on concrete values, each activation with its own permissions.
use super::eval::{bind, Evaluator, PreState, Store, View};
use super::heap::{field_key, Heap, Loc, Perms, Value};
use super::{RunConfig, Stop, R};
use crate::ir::{Assertion, Call, Expr, Program, Stmt, StmtKind};
use std::rc::Rc;

/// One activation: `main`, or a mutator running.
struct Frame {
    member: String,
    store: Store,
    perms: Perms,
    old: Option<Rc<PreState>>,
}

/// How a statement list ended.
enum Flow {
    Next,
    Return(Value),
}

pub(crate) struct Machine<'p> {
    ev: Evaluator<'p>,
    heap: Heap,
    pub calls: u64,
    depth: usize,
}

/// A view of the heap through an activation (a macro: the view borrows `heap` while the
/// evaluator is borrowed mutably, two different fields).
macro_rules! view {
    ($m:expr, $f:expr) => {
        View {
            store: &$f.store,
            heap: &$m.heap,
            readable: &$f.perms,
            old: $f.old.as_deref(),
            member: &$f.member,
        }
    };
}

impl<'p> Machine<'p> {
    pub fn new(program: &'p Program, src: &'p str, config: RunConfig) -> Machine<'p> {
        Machine {
            ev: Evaluator {
                program,
                src,
                config,
                steps: 0,
                pure_stack: Vec::new(),
                pred_stack: Vec::new(),
            },
            heap: Heap::default(),
            calls: 0,
            depth: 0,
        }
    }

    pub fn steps(&self) -> u64 {
        self.ev.steps
    }

    pub fn run_main(&mut self, body: &[Stmt]) -> R<()> {
        let mut f = Frame {
            member: "main".into(),
            store: Store::new(),
            perms: Perms::new(),
            old: None,
        };
        self.block(&mut f, body).map(|_| ())
    }

    fn eval(&mut self, f: &Frame, e: &Expr) -> R<Value> {
        self.ev.eval(&view!(self, f), e)
    }

    fn boolean(&mut self, f: &Frame, e: &Expr) -> R<bool> {
        self.ev.boolean(&view!(self, f), e)
    }

    /// Checks `a` against the activation's permissions and moves its footprint out of them.
    fn take(&mut self, f: &mut Frame, a: &Assertion, check: &str) -> R<Perms> {
        let mut remaining = f.perms.clone();
        let mut taken = Perms::new();
        self.ev
            .consume(&view!(self, f), a, &mut remaining, &mut taken, check)?;
        f.perms = remaining;
        Ok(taken)
    }

    /// Checks `a` without moving anything (`assert`).
    fn holds(&mut self, f: &Frame, a: &Assertion, check: &str) -> R<()> {
        let mut remaining = f.perms.clone();
        let mut taken = Perms::new();
        self.ev
            .consume(&view!(self, f), a, &mut remaining, &mut taken, check)
            .map(|_| ())
    }

    fn block(&mut self, f: &mut Frame, stmts: &[Stmt]) -> R<Flow> {
        for s in stmts {
            if let Flow::Return(v) = self.stmt(f, s)? {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Next)
    }

    fn stmt(&mut self, f: &mut Frame, s: &Stmt) -> R<Flow> {
        self.ev.step(s.span)?;
        match &s.kind {
            StmtKind::Decl(x, sort) => {
                f.store.insert(x.clone(), Value::default_of(*sort));
            }
            StmtKind::Assign(x, e) => {
                let v = self.eval(f, e)?;
                f.store.insert(x.clone(), v);
            }
            StmtKind::New(x, class) => {
                let fields = self
                    .ev
                    .program
                    .classes
                    .get(class)
                    .map(|c| c.fields.clone())
                    .unwrap_or_default();
                let (o, perms) = self.heap.new_object(&fields);
                f.perms = f.perms.clone().union(perms);
                f.store.insert(x.clone(), o);
            }
            StmtKind::NewArray(x, elem, len) => {
                let n = self.ev.int(&view!(self, f), len)?;
                let Ok(n) = usize::try_from(n) else {
                    return Err(self.ev.violation(
                        &f.member,
                        "array length",
                        format!(
                            "array length `{}` is negative ({n})",
                            self.ev.text(len.span)
                        ),
                        len.span,
                    ));
                };
                if n > 1 << 20 {
                    return Err(Stop::Limit(format!("array of {n} elements"), len.span));
                }
                let (a, perms) = self.heap.new_array(*elem, n);
                f.perms = f.perms.clone().union(perms);
                f.store.insert(x.clone(), a);
            }
            StmtKind::FieldAssign(obj, field, value) => {
                let o = self.ev.object(&view!(self, f), obj, "write a field of")?;
                let v = self.eval(f, value)?;
                let key = field_key(field);
                self.writable(f, &Loc::Field(o, key.clone()), s)?;
                self.heap.set_field(o, key, v);
            }
            StmtKind::ArrayAssign(arr, idx, value, _) => {
                let a = self
                    .ev
                    .object(&view!(self, f), arr, "write an element of")?;
                let i = self.ev.int(&view!(self, f), idx)?;
                let v = self.eval(f, value)?;
                self.writable(f, &Loc::Elems(a), s)?;
                let len = self.heap.array(a).map_or(0, |x| x.items.len());
                match usize::try_from(i).ok().filter(|i| *i < len) {
                    Some(i) => self.heap.set_elem(a, i, v),
                    None => {
                        return Err(self.ev.violation(
                            &f.member,
                            "array bounds",
                            format!(
                                "index {i} is out of bounds of `{}` (length {len})",
                                self.ev.text(arr.span)
                            ),
                            idx.span,
                        ))
                    }
                }
            }
            StmtKind::Call(lhs, call) => {
                let r = self.call(f, call)?;
                if let (Some(x), Some(v)) = (lhs, r) {
                    f.store.insert(x.clone(), v);
                }
            }
            StmtKind::If(c, a, b) => {
                let branch = if self.boolean(f, c)? { a } else { b };
                return self.block(f, branch);
            }
            StmtKind::While {
                cond,
                invariant,
                body,
                ..
            } => return self.exec_while(f, cond, invariant, body),
            StmtKind::Assert(a) => self.holds(f, a, "assertion")?,
            StmtKind::Assume(e) => {
                if !self.boolean(f, e)? {
                    return Err(Stop::Blocked(s.span));
                }
            }
            StmtKind::Open(call) => {
                self.ev
                    .predicate_holds(&view!(self, f), call, "open: the body of")?
            }
            StmtKind::Close(call) => {
                self.ev
                    .predicate_holds(&view!(self, f), call, "close: the body of")?
            }
            StmtKind::Use(call) => {
                let e = Expr {
                    kind: crate::ir::ExprKind::PureCall(call.clone()),
                    span: call.span,
                };
                self.eval(f, &e)?;
            }
            StmtKind::Join(a) => {
                // After `join φ` the activation holds exactly φ (§6.1): the rest is lost.
                f.perms = self.take(f, a, "join")?;
            }
            StmtKind::Return(e) => return Ok(Flow::Return(self.eval(f, e)?)),
        }
        Ok(Flow::Next)
    }

    fn writable(&self, f: &Frame, loc: &Loc, s: &Stmt) -> R<()> {
        self.ev.readable(&view!(self, f), loc, s.span, "write")
    }

    /// `while`: the invariant's footprint goes to the iterations, checked on entry and after
    /// each iteration; the rest of the permissions come back after the loop.
    fn exec_while(
        &mut self,
        f: &mut Frame,
        cond: &Expr,
        invariant: &Assertion,
        body: &[Stmt],
    ) -> R<Flow> {
        let inner = self.take(f, invariant, "loop invariant on entry")?;
        let mut iteration = Frame {
            member: f.member.clone(),
            store: std::mem::take(&mut f.store),
            perms: inner,
            old: f.old.clone(),
        };
        let flow = self.iterate(&mut iteration, cond, invariant, body);
        f.store = iteration.store;
        f.perms = f.perms.clone().union(iteration.perms);
        flow
    }

    fn iterate(
        &mut self,
        it: &mut Frame,
        cond: &Expr,
        invariant: &Assertion,
        body: &[Stmt],
    ) -> R<Flow> {
        while self.boolean(it, cond)? {
            if let Flow::Return(v) = self.block(it, body)? {
                return Ok(Flow::Return(v));
            }
            it.perms = self.take(it, invariant, "loop invariant preserved")?;
        }
        Ok(Flow::Next)
    }

    /// A mutator call: the precondition's footprint moves to the callee, the body runs, the
    /// postcondition (parameters at their entry values) is checked and its footprint moves back.
    fn call(&mut self, f: &mut Frame, call: &Call) -> R<Option<Value>> {
        let (recv, args) = self.ev.call_values(&view!(self, f), call)?;
        let program = self.ev.program;
        let Some(m) = program.mutator(&call.class, &call.method) else {
            return Err(Stop::Limit(
                format!("no mutator `{}.{}`", call.class, call.method),
                call.span,
            ));
        };
        let shown = if m.is_constructor { &m.class } else { &m.name };
        let name = format!("{}.{shown}", m.class);
        let entry = bind(Value::Ref(recv), &m.params, &args);
        let pre_check = format!("precondition of `{name}`");
        let mut remaining = f.perms.clone();
        let mut given = Perms::new();
        self.ev
            .consume(
                &view!(self, f).with_store(&entry),
                &m.pre,
                &mut remaining,
                &mut given,
                &pre_check,
            )
            .map_err(|stop| self.ev.at_site(stop, &pre_check, call.span))?;
        f.perms = remaining;
        if self.depth >= self.ev.config.max_depth {
            return Err(Stop::Limit(
                format!(
                    "mutator calls nested deeper than {}",
                    self.ev.config.max_depth
                ),
                call.span,
            ));
        }
        self.calls += 1;
        let mut callee = Frame {
            member: name.clone(),
            store: entry.clone(),
            perms: given.clone(),
            old: Some(Rc::new(PreState {
                heap: self.heap.clone(),
                perms: given,
            })),
        };
        self.depth += 1;
        let flow = self.block(&mut callee, &m.body);
        self.depth -= 1;
        let result = match flow? {
            Flow::Return(v) => Some(v),
            Flow::Next => m.ret.map(Value::default_of),
        };
        // Callers assume the postcondition with the arguments they passed (Figure 8), so it is
        // checked with the parameters at their entry values, whatever the body assigned.
        let mut post = entry;
        if let Some(r) = &result {
            post.insert("result".into(), r.clone());
        }
        let back = {
            let mut at_return = Frame {
                member: name,
                store: post,
                perms: callee.perms,
                old: callee.old,
            };
            self.take(&mut at_return, &m.post, "postcondition")?
        };
        f.perms = f.perms.clone().union(back);
        Ok(result)
    }
}
