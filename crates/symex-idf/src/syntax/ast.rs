//! The surface syntax tree, as parsed: every node keeps its source span.
//!
//! Expressions and assertions share one tree here because the concrete syntax does (a boolean
//! expression is an assertion); the checker (`crate::check`) separates them into the paper's
//! Figure 4 categories.

/// A byte range in the source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Int,
    Bool,
    /// A class name; `Object` is predefined.
    Class(String),
    Array(Box<Type>),
    /// Only as a mutator's return type.
    Void,
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Type::Int => write!(f, "int"),
            Type::Bool => write!(f, "bool"),
            Type::Class(c) => write!(f, "{c}"),
            Type::Array(t) => write!(f, "{t}[]"),
            Type::Void => write!(f, "void"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Program {
    pub classes: Vec<ClassDecl>,
    pub main: Option<Block>,
    /// Things that parse but are most likely not what was meant (a `*` read as multiplication
    /// between two comparisons).
    pub warnings: Vec<crate::diagnostics::Diagnostic>,
}

#[derive(Clone, Debug)]
pub struct ClassDecl {
    pub name: Ident,
    pub members: Vec<Member>,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub ty: Type,
    pub name: Ident,
}

#[derive(Clone, Debug)]
pub enum Member {
    Field {
        ty: Type,
        name: Ident,
    },
    Constructor(Method),
    Mutator(Method),
    Pure {
        ret: Type,
        name: Ident,
        params: Vec<Param>,
        requires: Vec<Expr>,
        body: Expr,
    },
    Predicate {
        name: Ident,
        params: Vec<Param>,
        body: Expr,
    },
}

/// A mutator or constructor (a constructor has `ret == Void` and its class's name).
#[derive(Clone, Debug)]
pub struct Method {
    pub ret: Type,
    pub name: Ident,
    pub params: Vec<Param>,
    pub requires: Vec<Expr>,
    pub ensures: Vec<Expr>,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// The right-hand side of a declaration or assignment.
#[derive(Clone, Debug)]
pub enum Rhs {
    Expr(Expr),
    /// `new C` (args `None`) or `new C(args)`.
    New {
        class: Ident,
        args: Option<Vec<Expr>>,
        span: Span,
    },
    /// `new T[len]` (addition for the paper's `ArrayList`).
    NewArray {
        elem: Type,
        len: Expr,
    },
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    VarDecl {
        ty: Type,
        name: Ident,
        init: Option<Rhs>,
    },
    Assign {
        name: Ident,
        rhs: Rhs,
    },
    FieldAssign {
        target: Expr,
        field: Ident,
        value: Expr,
    },
    /// `a[i] := v` (addition for arrays).
    ArrayAssign {
        array: Expr,
        index: Expr,
        value: Expr,
    },
    /// A mutator call as a statement; the call is an `ExprKind::Call`.
    Call {
        call: Expr,
    },
    If {
        cond: Expr,
        then: Block,
        els: Option<Block>,
    },
    While {
        cond: Expr,
        invariants: Vec<Expr>,
        body: Block,
    },
    Assert(Expr),
    Assume(Expr),
    Open(Expr),
    Close(Expr),
    Use(Expr),
    Join(Expr),
    Return(Expr),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    /// The separating conjunction `*` (the parser decides between this and `Mul`).
    Star,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Mul | BinOp::Star => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "=",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Null,
    Bool(bool),
    Int(i128),
    Name(String),
    This,
    Result,
    Field(Box<Expr>, Ident),
    /// `recv.name(args)` or `name(args)` (receiver `this`).
    Call {
        recv: Option<Box<Expr>>,
        name: Ident,
        args: Vec<Expr>,
    },
    Index(Box<Expr>, Box<Expr>),
    Length(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Old(Box<Expr>),
    Opening(Box<Expr>, Box<Expr>),
    Using(Box<Expr>, Box<Expr>),
    /// `acc(e.f)`, `acc(f)` or `acc(e.elems)`; the argument is kept as parsed.
    Acc(Box<Expr>),
    Untouched(Box<Expr>),
}
