//! The checked program the verifier runs on: names resolved, `this` explicit, expressions and
//! assertions separated as in the paper's Figure 4, constructors turned into `init_C` mutators.
pub use crate::syntax::ast::{BinOp, Span, UnOp};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The logical sort of a program value (`ref` covers objects and arrays).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Int,
    Bool,
    Ref,
}

/// A field, named `Class.field` so that fields of different classes never meet in one chunk
/// family.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldId {
    pub class: String,
    pub name: String,
    pub sort: Sort,
    /// `Class.field`, the name of its chunks (built once: a chunk is looked up at every access).
    pub key: Arc<str>,
}

impl FieldId {
    pub fn new(class: &str, name: &str, sort: Sort) -> FieldId {
        FieldId {
            class: class.into(),
            name: name.into(),
            sort,
            key: Arc::from(format!("{class}.{name}")),
        }
    }
}

impl std::fmt::Display for FieldId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.name)
    }
}

/// A call of a pure method, predicate or mutator `recv.method(args)` of class `class`.
#[derive(Clone, Debug)]
pub struct Call {
    pub class: String,
    pub method: String,
    pub recv: Box<Expr>,
    pub args: Vec<Expr>,
    pub span: Span,
    /// `Class.method`, the name of a predicate's chunks (built once).
    pub key: Arc<str>,
}

impl Call {
    pub fn new(class: String, method: String, recv: Expr, args: Vec<Expr>, span: Span) -> Call {
        let key = Arc::from(format!("{class}.{method}"));
        Call {
            class,
            method,
            recv: Box::new(recv),
            args,
            span,
            key,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Null,
    Bool(bool),
    Int(i128),
    /// A local, parameter, `this` or `result`.
    Var(String, Sort),
    Field(Box<Expr>, FieldId),
    PureCall(Call),
    /// `a[i]`, with the element sort.
    Index(Box<Expr>, Box<Expr>, Sort),
    Length(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    /// Never `BinOp::Star`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Old(Box<Expr>),
    Opening(Call, Box<Expr>),
    Using(Call, Box<Expr>),
}

#[derive(Clone, Debug)]
pub struct Assertion {
    pub kind: AssertionKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum AssertionKind {
    /// A boolean expression (the paper's `e1 = e2`, generalised).
    Pure(Expr),
    Acc(Expr, FieldId),
    /// `acc(a.elems)`: every element of the array, with the element sort.
    AccElems(Expr, Sort),
    Sep(Box<Assertion>, Box<Assertion>),
    Pred(Call),
    Cond(Expr, Box<Assertion>, Box<Assertion>),
    Untouched(Box<Assertion>),
}

impl Assertion {
    pub fn truth(span: Span) -> Assertion {
        Assertion {
            kind: AssertionKind::Pure(Expr {
                kind: ExprKind::Bool(true),
                span,
            }),
            span,
        }
    }

    /// Whether the assertion has no footprint (asserts no chunk): its snapshot is `unit`.
    pub fn is_pure(&self) -> bool {
        match &self.kind {
            AssertionKind::Pure(_) | AssertionKind::Untouched(_) => true,
            AssertionKind::Acc(..) | AssertionKind::AccElems(..) | AssertionKind::Pred(_) => false,
            AssertionKind::Sep(a, b) | AssertionKind::Cond(_, a, b) => a.is_pure() && b.is_pure(),
        }
    }

    /// `a * b`, dropping a literal `true` on either side.
    pub fn sep(a: Assertion, b: Assertion) -> Assertion {
        let is_true = |x: &Assertion| {
            matches!(
                x.kind,
                AssertionKind::Pure(Expr {
                    kind: ExprKind::Bool(true),
                    ..
                })
            )
        };
        if is_true(&a) {
            return b;
        }
        if is_true(&b) {
            return a;
        }
        let span = a.span.to(b.span);
        Assertion {
            kind: AssertionKind::Sep(Box::new(a), Box::new(b)),
            span,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `T x;`: the variable starts as `null`/`0`/`false`.
    Decl(String, Sort),
    Assign(String, Expr),
    New(String, String),
    NewArray(String, Sort, Expr),
    FieldAssign(Expr, FieldId, Expr),
    ArrayAssign(Expr, Expr, Expr, Sort),
    /// A mutator call, its result stored in `lhs` if given.
    Call(Option<String>, Call),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `while (cond) invariant inv; body`, with the locals the body assigns (havocked at the loop).
    While {
        cond: Expr,
        invariant: Assertion,
        body: Vec<Stmt>,
        modified: Vec<String>,
    },
    Assert(Assertion),
    Assume(Expr),
    Open(Call),
    Close(Call),
    Use(Call),
    Join(Assertion),
    Return(Expr),
}

#[derive(Clone, Debug)]
pub struct Mutator {
    pub class: String,
    pub name: String,
    pub params: Vec<(String, Sort)>,
    pub ret: Option<Sort>,
    pub pre: Assertion,
    pub post: Assertion,
    pub body: Vec<Stmt>,
    pub span: Span,
    pub is_constructor: bool,
}

#[derive(Clone, Debug)]
pub struct Pure {
    pub class: String,
    pub name: String,
    pub params: Vec<(String, Sort)>,
    pub ret: Sort,
    pub pre: Assertion,
    pub body: Expr,
    pub span: Span,
    /// Position among the pure methods in program text (the §3.6 termination order).
    pub order: usize,
}

#[derive(Clone, Debug)]
pub struct Predicate {
    pub class: String,
    pub name: String,
    pub params: Vec<(String, Sort)>,
    pub body: Assertion,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Class {
    pub name: String,
    pub fields: Vec<FieldId>,
}

/// Members are keyed by `(class, name)`.
pub type Key = (String, String);

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub classes: BTreeMap<String, Class>,
    pub mutators: BTreeMap<Key, Mutator>,
    pub pures: BTreeMap<Key, Pure>,
    pub predicates: BTreeMap<Key, Predicate>,
    pub main: Option<(Vec<Stmt>, Span)>,
    /// Member names in program text order, for reporting.
    pub order: Vec<Key>,
    /// The front end's warnings (the program is checked, but likely not what was meant).
    pub warnings: Vec<crate::diagnostics::Diagnostic>,
}

impl Program {
    pub fn mutator(&self, class: &str, name: &str) -> Option<&Mutator> {
        self.mutators.get(&(class.to_string(), name.to_string()))
    }
    pub fn pure(&self, class: &str, name: &str) -> Option<&Pure> {
        self.pures.get(&(class.to_string(), name.to_string()))
    }
    pub fn predicate(&self, class: &str, name: &str) -> Option<&Predicate> {
        self.predicates.get(&(class.to_string(), name.to_string()))
    }
}
