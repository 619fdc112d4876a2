//! Recursive-descent parser for `spec/idf-language.md`.
//!
//! Precedence, loosest first: `?:`, separating `*` / `||`, `&&`, equality, comparison (chained),
//! `+ -`, multiplicative `* / %`, unary, postfix. A `*` is multiplication only when both operands
//! it takes at multiplicative precedence are integers; telling that needs the declarations, so a
//! program is parsed twice (see [`parse_program`]).
use super::ast::*;
use super::lexer::{lex, Tok, Token};
use crate::check::decls::Decls;
use crate::diagnostics::Diagnostic;
use std::collections::HashMap;

type PResult<T> = Result<T, Diagnostic>;

/// Parses a whole program: a first pass collects the declarations (reading every `*` as
/// multiplication, which accepts the same token strings), the second pass uses them to decide
/// each `*`.
pub fn parse_program(src: &str) -> PResult<Program> {
    let tokens = lex(src)?;
    let first = Parser::new(&tokens, None).program()?;
    let decls = Decls::collect(&first);
    Parser::new(&tokens, Some(&decls)).program()
}

/// What the parser knows about the names in scope, to type the operands of `*`.
#[derive(Default)]
struct Scope {
    class: Option<String>,
    result: Option<Type>,
    locals: Vec<HashMap<String, Type>>,
}

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    decls: Option<&'a Decls>,
    scope: Scope,
    /// Nesting depth of expressions, bounded so that hostile input cannot overflow the stack.
    depth: usize,
    /// Where the outermost expression being parsed starts (a token index).
    expr_start: usize,
    /// Nesting depth of blocks.
    blocks: usize,
    /// Statements of the member being parsed.
    statements: usize,
    warnings: Vec<Diagnostic>,
}

const MAX_DEPTH: usize = 200;

/// Every later pass (checking, lowering, the verifier, dropping the tree) recurses over the
/// height of an expression, and a chain such as `1 + 1 + … + 1` is as high as it is long:
/// so one expression may have at most this many tokens, blocks may nest at most
/// `MAX_BLOCKS` deep, and a contract (or a loop) may have at most `MAX_CLAUSES` clauses
/// (they are joined into one `*` chain). The verifier runs straight-line statements one after
/// another and nests a frame only where a statement splits the path (a path with thousands of
/// splits is out of reach anyway), so the bound on statements per member is about memory:
/// Figure 11's client at n = 100,000 cells has 200,000.
const MAX_EXPR_TOKENS: usize = 5000;
const MAX_BLOCKS: usize = 1000;
const MAX_CLAUSES: usize = 1000;
const MAX_STATEMENTS: usize = 500_000;

impl<'a> Parser<'a> {
    fn new(toks: &'a [Token], decls: Option<&'a Decls>) -> Parser<'a> {
        Parser {
            toks,
            pos: 0,
            decls,
            scope: Scope::default(),
            depth: 0,
            expr_start: 0,
            blocks: 0,
            statements: 0,
            warnings: Vec::new(),
        }
    }

    // ---- token helpers ----

    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }

    fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    fn bump(&mut self) -> Span {
        let s = self.span();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        s
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }

    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Kw(x) if *x == k)
    }

    fn eat_sym(&mut self, s: &str) -> bool {
        let yes = self.is_sym(s);
        if yes {
            self.bump();
        }
        yes
    }

    fn eat_kw(&mut self, k: &str) -> bool {
        let yes = self.is_kw(k);
        if yes {
            self.bump();
        }
        yes
    }

    fn describe(tok: &Tok) -> String {
        match tok {
            Tok::Ident(n) => format!("identifier `{n}`"),
            Tok::Int(n) => format!("integer `{n}`"),
            Tok::Kw(k) => format!("keyword `{k}`"),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Eof => "end of file".to_string(),
        }
    }

    fn error<T>(&self, expected: &str) -> PResult<T> {
        Err(Diagnostic::error(
            format!("expected {expected}, found {}", Self::describe(self.peek())),
            self.span(),
        )
        .with_label(format!("expected {expected}")))
    }

    fn expect_sym(&mut self, s: &str) -> PResult<Span> {
        if self.is_sym(s) {
            Ok(self.bump())
        } else {
            self.error(&format!("`{s}`"))
        }
    }

    fn expect_kw(&mut self, k: &str) -> PResult<Span> {
        if self.is_kw(k) {
            Ok(self.bump())
        } else {
            self.error(&format!("`{k}`"))
        }
    }

    fn ident(&mut self) -> PResult<Ident> {
        match self.peek().clone() {
            Tok::Ident(name) => Ok(Ident {
                name,
                span: self.bump(),
            }),
            _ => self.error("an identifier"),
        }
    }

    // ---- declarations ----

    fn program(&mut self) -> PResult<Program> {
        let mut classes = Vec::new();
        while self.is_kw("class") {
            classes.push(self.class()?);
        }
        let main = if self.eat_kw("main") {
            self.statements = 0;
            self.scope = Scope {
                locals: vec![HashMap::new()],
                ..Scope::default()
            };
            Some(self.block()?)
        } else {
            None
        };
        if !matches!(self.peek(), Tok::Eof) {
            return self.error(if main.is_some() {
                "end of file"
            } else {
                "`class`, `main` or end of file"
            });
        }
        Ok(Program {
            classes,
            main,
            warnings: std::mem::take(&mut self.warnings),
        })
    }

    fn class(&mut self) -> PResult<ClassDecl> {
        self.expect_kw("class")?;
        let name = self.ident()?;
        self.expect_sym("{")?;
        let mut members = Vec::new();
        while !self.is_sym("}") {
            members.push(self.member(&name.name)?);
        }
        self.bump();
        Ok(ClassDecl { name, members })
    }

    fn ty(&mut self) -> PResult<Type> {
        let mut t = match self.peek().clone() {
            Tok::Kw("int") => Type::Int,
            Tok::Kw("bool") => Type::Bool,
            Tok::Ident(n) => Type::Class(n),
            _ => return self.error("a type"),
        };
        self.bump();
        while self.is_sym("[") && matches!(self.peek_at(1), Tok::Sym("]")) {
            self.bump();
            self.bump();
            t = Type::Array(Box::new(t));
        }
        Ok(t)
    }

    fn params(&mut self) -> PResult<Vec<Param>> {
        self.expect_sym("(")?;
        let mut ps = Vec::new();
        if !self.is_sym(")") {
            loop {
                let ty = self.ty()?;
                let name = self.ident()?;
                ps.push(Param { ty, name });
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        self.expect_sym(")")?;
        Ok(ps)
    }

    fn enter_member(&mut self, class: &str, params: &[Param], result: Option<Type>) {
        self.statements = 0;
        let locals = params
            .iter()
            .map(|p| (p.name.name.clone(), p.ty.clone()))
            .collect();
        self.scope = Scope {
            class: Some(class.to_string()),
            result,
            locals: vec![locals],
        };
    }

    fn contracts(&mut self) -> PResult<(Vec<Expr>, Vec<Expr>)> {
        let (mut requires, mut ensures) = (Vec::new(), Vec::new());
        loop {
            if self.eat_kw("requires") {
                self.clause(&mut requires)?;
            } else if self.eat_kw("ensures") {
                self.clause(&mut ensures)?;
            } else {
                return Ok((requires, ensures));
            }
        }
    }

    /// One `requires`, `ensures` or `invariant` clause after its keyword, with its `;`.
    fn clause(&mut self, clauses: &mut Vec<Expr>) -> PResult<()> {
        if clauses.len() >= MAX_CLAUSES {
            return Err(Diagnostic::error(
                format!("too many clauses (more than {MAX_CLAUSES})"),
                self.prev_span(),
            ));
        }
        clauses.push(self.expr()?);
        self.expect_sym(";")?;
        Ok(())
    }

    fn member(&mut self, class: &str) -> PResult<Member> {
        if self.eat_kw("pure") {
            let ret = self.ty()?;
            let name = self.ident()?;
            let params = self.params()?;
            self.enter_member(class, &params, Some(ret.clone()));
            let mut requires = Vec::new();
            while self.eat_kw("requires") {
                self.clause(&mut requires)?;
            }
            let body = self.return_body()?;
            return Ok(Member::Pure {
                ret,
                name,
                params,
                requires,
                body,
            });
        }
        if self.eat_kw("predicate") {
            let name = self.ident()?;
            let params = self.params()?;
            self.enter_member(class, &params, None);
            let body = self.return_body()?;
            return Ok(Member::Predicate { name, params, body });
        }
        let is_ctor = matches!(self.peek(), Tok::Ident(n) if n == class)
            && matches!(self.peek_at(1), Tok::Sym("("));
        if is_ctor {
            let name = self.ident()?;
            let params = self.params()?;
            self.enter_member(class, &params, None);
            let (requires, ensures) = self.contracts()?;
            let body = self.block()?;
            return Ok(Member::Constructor(Method {
                ret: Type::Void,
                name,
                params,
                requires,
                ensures,
                body,
            }));
        }
        let ret = if self.eat_kw("void") {
            Type::Void
        } else {
            self.ty()?
        };
        let name = self.ident()?;
        if ret != Type::Void && self.eat_sym(";") {
            return Ok(Member::Field { ty: ret, name });
        }
        if !self.is_sym("(") {
            let expected = if ret == Type::Void {
                "`(`"
            } else {
                "`;` after a field or `(` after a method name"
            };
            return self.error(expected);
        }
        let params = self.params()?;
        let result = (ret != Type::Void).then(|| ret.clone());
        self.enter_member(class, &params, result);
        let (requires, ensures) = self.contracts()?;
        let body = self.block()?;
        Ok(Member::Mutator(Method {
            ret,
            name,
            params,
            requires,
            ensures,
            body,
        }))
    }

    /// `{ return e; }`, the body of a pure method or predicate.
    fn return_body(&mut self) -> PResult<Expr> {
        self.expect_sym("{")?;
        self.expect_kw("return")?;
        let e = self.expr()?;
        self.expect_sym(";")?;
        self.expect_sym("}")?;
        Ok(e)
    }

    // ---- statements ----

    fn block(&mut self) -> PResult<Block> {
        if self.blocks >= MAX_BLOCKS {
            return Err(Diagnostic::error(
                format!("blocks nested too deeply (more than {MAX_BLOCKS})"),
                self.span(),
            ));
        }
        self.blocks += 1;
        let r = self.block_inner();
        self.blocks -= 1;
        r
    }

    fn block_inner(&mut self) -> PResult<Block> {
        let start = self.expect_sym("{")?;
        self.scope.locals.push(HashMap::new());
        let mut stmts = Vec::new();
        while !self.is_sym("}") {
            if matches!(self.peek(), Tok::Eof) {
                return self.error("`}`");
            }
            stmts.push(self.stmt()?);
        }
        let end = self.bump();
        self.scope.locals.pop();
        Ok(Block {
            stmts,
            span: start.to(end),
        })
    }

    fn is_decl_start(&self) -> bool {
        match self.peek() {
            Tok::Kw("int") | Tok::Kw("bool") => true,
            Tok::Ident(_) => {
                matches!(self.peek_at(1), Tok::Ident(_))
                    || (matches!(self.peek_at(1), Tok::Sym("["))
                        && matches!(self.peek_at(2), Tok::Sym("]")))
            }
            _ => false,
        }
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        let start = self.span();
        self.expr_start = self.pos;
        self.statements += 1;
        if self.statements > MAX_STATEMENTS {
            return Err(Diagnostic::error(
                format!("too many statements in one method (more than {MAX_STATEMENTS})"),
                start,
            ));
        }
        let kind = self.stmt_kind()?;
        Ok(Stmt {
            kind,
            span: start.to(self.prev_span()),
        })
    }

    fn stmt_kind(&mut self) -> PResult<StmtKind> {
        if self.eat_kw("if") {
            return self.if_rest();
        }
        if self.eat_kw("while") {
            self.expect_sym("(")?;
            let cond = self.expr()?;
            self.expect_sym(")")?;
            let mut invariants = Vec::new();
            while self.eat_kw("invariant") {
                self.clause(&mut invariants)?;
            }
            let body = self.block()?;
            return Ok(StmtKind::While {
                cond,
                invariants,
                body,
            });
        }
        type Ctor = fn(Expr) -> StmtKind;
        let simple: [(&str, Ctor); 7] = [
            ("assert", StmtKind::Assert),
            ("assume", StmtKind::Assume),
            ("open", StmtKind::Open),
            ("close", StmtKind::Close),
            ("use", StmtKind::Use),
            ("join", StmtKind::Join),
            ("return", StmtKind::Return),
        ];
        for (kw, ctor) in simple {
            if self.eat_kw(kw) {
                let e = self.expr()?;
                self.expect_sym(";")?;
                return Ok(ctor(e));
            }
        }
        if self.is_decl_start() {
            let ty = self.ty()?;
            let name = self.ident()?;
            let init = if self.eat_sym(":=") {
                Some(self.rhs()?)
            } else {
                None
            };
            self.expect_sym(";")?;
            if let Some(scope) = self.scope.locals.last_mut() {
                scope.insert(name.name.clone(), ty.clone());
            }
            return Ok(StmtKind::VarDecl { ty, name, init });
        }
        if matches!(self.peek(), Tok::Ident(_)) && matches!(self.peek_at(1), Tok::Sym(":=")) {
            let name = self.ident()?;
            self.bump();
            let rhs = self.rhs()?;
            self.expect_sym(";")?;
            return Ok(StmtKind::Assign { name, rhs });
        }
        let target = self.postfix()?;
        if self.eat_sym(":=") {
            let value = self.expr()?;
            self.expect_sym(";")?;
            return match target.kind {
                ExprKind::Field(obj, field) => Ok(StmtKind::FieldAssign {
                    target: *obj,
                    field,
                    value,
                }),
                ExprKind::Index(array, index) => Ok(StmtKind::ArrayAssign {
                    array: *array,
                    index: *index,
                    value,
                }),
                _ => Err(
                    Diagnostic::error("cannot assign to this expression", target.span)
                        .with_label("not a variable, field or array element"),
                ),
            };
        }
        self.expect_sym(";")?;
        match target.kind {
            ExprKind::Call { .. } => Ok(StmtKind::Call { call: target }),
            _ => Err(
                Diagnostic::error("expression statement must be a method call", target.span)
                    .with_label("not a call"),
            ),
        }
    }

    fn if_rest(&mut self) -> PResult<StmtKind> {
        self.expect_sym("(")?;
        let cond = self.expr()?;
        self.expect_sym(")")?;
        let then = self.block()?;
        let els = if self.eat_kw("else") {
            if self.is_kw("if") {
                let start = self.bump();
                let kind = self.if_rest()?;
                let span = start.to(self.prev_span());
                Some(Block {
                    stmts: vec![Stmt { kind, span }],
                    span,
                })
            } else {
                Some(self.block()?)
            }
        } else {
            None
        };
        Ok(StmtKind::If { cond, then, els })
    }

    fn rhs(&mut self) -> PResult<Rhs> {
        let start = self.span();
        if !self.eat_kw("new") {
            return Ok(Rhs::Expr(self.expr()?));
        }
        if self.is_kw("int") || self.is_kw("bool") {
            // Arrays of a primitive type: `new int[n]`.
            let elem = if self.eat_kw("int") {
                Type::Int
            } else {
                self.bump();
                Type::Bool
            };
            self.expect_sym("[")?;
            let len = self.expr()?;
            self.expect_sym("]")?;
            return Ok(Rhs::NewArray { elem, len });
        }
        let class = self.ident()?;
        if self.eat_sym("[") {
            let len = self.expr()?;
            self.expect_sym("]")?;
            return Ok(Rhs::NewArray {
                elem: Type::Class(class.name),
                len,
            });
        }
        let args = if self.is_sym("(") {
            Some(self.args()?)
        } else {
            None
        };
        Ok(Rhs::New {
            class,
            args,
            span: start.to(self.prev_span()),
        })
    }

    fn args(&mut self) -> PResult<Vec<Expr>> {
        self.expect_sym("(")?;
        let mut args = Vec::new();
        if !self.is_sym(")") {
            loop {
                args.push(self.expr()?);
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        self.expect_sym(")")?;
        Ok(args)
    }

    // ---- expressions ----

    /// Fails once the expression (or statement) being parsed is longer than
    /// `MAX_EXPR_TOKENS`.
    fn within_length(&self) -> PResult<()> {
        if self.pos.saturating_sub(self.expr_start) > MAX_EXPR_TOKENS {
            return Err(Diagnostic::error(
                format!("expression too long (more than {MAX_EXPR_TOKENS} tokens)"),
                self.span(),
            ));
        }
        Ok(())
    }

    pub fn expr(&mut self) -> PResult<Expr> {
        if self.depth == 0 {
            self.expr_start = self.pos;
        }
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error(
                "expression nested too deeply",
                self.span(),
            ));
        }
        let r = self.cond();
        self.depth -= 1;
        r
    }

    fn cond(&mut self) -> PResult<Expr> {
        let c = self.sep()?;
        if !self.eat_sym("?") {
            return Ok(c);
        }
        let a = self.expr()?;
        self.expect_sym(":")?;
        let b = self.expr()?;
        let span = c.span.to(b.span);
        Ok(Expr {
            kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
            span,
        })
    }

    fn binary(op: BinOp, l: Expr, r: Expr) -> Expr {
        let span = l.span.to(r.span);
        Expr {
            kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
            span,
        }
    }

    /// One left-associative level: `operand (op operand)*` with the operators of `ops`.
    fn left_assoc(
        &mut self,
        ops: &[(&str, BinOp)],
        operand: fn(&mut Self) -> PResult<Expr>,
    ) -> PResult<Expr> {
        let mut l = operand(self)?;
        loop {
            let Some(&(_, op)) = ops.iter().find(|(sym, _)| self.is_sym(sym)) else {
                return Ok(l);
            };
            self.bump();
            let r = operand(self)?;
            l = Self::binary(op, l, r);
        }
    }

    /// The separating level: `*` (when not multiplication) and `||`.
    fn sep(&mut self) -> PResult<Expr> {
        self.left_assoc(&[("*", BinOp::Star), ("||", BinOp::Or)], Self::and)
    }

    fn and(&mut self) -> PResult<Expr> {
        self.left_assoc(&[("&&", BinOp::And)], Self::equality)
    }

    fn equality(&mut self) -> PResult<Expr> {
        let ops = [("=", BinOp::Eq), ("==", BinOp::Eq), ("!=", BinOp::Ne)];
        self.left_assoc(&ops, Self::comparison)
    }

    /// `a < b <= c` means `a < b && b <= c`.
    fn comparison(&mut self) -> PResult<Expr> {
        let first = self.additive()?;
        let mut operands = vec![first];
        let mut ops = Vec::new();
        // Whether each operand was written in parentheses (a product meant as one).
        let mut parenthesized = vec![false];
        loop {
            let op = match self.peek() {
                Tok::Sym("<") => BinOp::Lt,
                Tok::Sym("<=") => BinOp::Le,
                Tok::Sym(">") => BinOp::Gt,
                Tok::Sym(">=") => BinOp::Ge,
                _ => break,
            };
            self.bump();
            ops.push(op);
            let opens = self.is_sym("(");
            operands.push(self.additive()?);
            let closes = self.pos > 0 && matches!(self.toks[self.pos - 1].tok, Tok::Sym(")"));
            parenthesized.push(opens && closes);
        }
        if ops.is_empty() {
            return Ok(operands.pop().expect("one operand"));
        }
        self.warn_product_between_comparisons(&operands, &parenthesized);
        let mut chain: Option<Expr> = None;
        for (i, op) in ops.into_iter().enumerate() {
            let cmp = Self::binary(op, operands[i].clone(), operands[i + 1].clone());
            chain = Some(match chain {
                None => cmp,
                Some(c) => Self::binary(BinOp::And, c, cmp),
            });
        }
        Ok(chain.expect("at least one comparison"))
    }

    /// `x > 0 * y > 0` parses as `x > 0*y && 0*y > 0` (the spec: `*` between integers is
    /// multiplication), which is seldom what was meant and may make a precondition vacuous:
    /// a product standing between two comparisons of a chain gets a warning, unless it is in
    /// parentheses. Only the second pass, which decides `*`, warns.
    fn warn_product_between_comparisons(&mut self, operands: &[Expr], parenthesized: &[bool]) {
        fn has_product(e: &Expr) -> bool {
            match &e.kind {
                ExprKind::Binary(BinOp::Mul, ..) => true,
                ExprKind::Binary(BinOp::Add | BinOp::Sub, l, r) => has_product(l) || has_product(r),
                _ => false,
            }
        }
        if self.decls.is_none() || operands.len() < 3 {
            return;
        }
        for (e, paren) in operands[1..operands.len() - 1]
            .iter()
            .zip(&parenthesized[1..])
        {
            if has_product(e) && !paren {
                self.warnings.push(
                    Diagnostic::error(
                        "`*` between two comparisons is read as multiplication: this is one operand of a chain of comparisons, compared on both sides",
                        e.span,
                    )
                    .with_label("a product between two comparisons")
                    .with_note("to join two assertions write `&&` (`x > 0 && y > 0`); to silence this, write the product in parentheses"),
                );
            }
        }
    }

    fn additive(&mut self) -> PResult<Expr> {
        let ops = [("+", BinOp::Add), ("-", BinOp::Sub)];
        self.left_assoc(&ops, Self::multiplicative)
    }

    fn multiplicative(&mut self) -> PResult<Expr> {
        let mut l = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Sym("*") => BinOp::Mul,
                Tok::Sym("/") => BinOp::Div,
                Tok::Sym("%") => BinOp::Mod,
                _ => return Ok(l),
            };
            let save = self.pos;
            self.bump();
            let r = self.unary()?;
            if op == BinOp::Mul && !(self.is_int(&l) && self.is_int(&r)) {
                // Not a product: leave the `*` to the separating level.
                self.pos = save;
                return Ok(l);
            }
            l = Self::binary(op, l, r);
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        let start = self.span();
        // Every operand passes here, so this bounds the length of operator chains.
        self.within_length()?;
        let op = if self.eat_sym("!") {
            UnOp::Not
        } else if self.eat_sym("-") {
            UnOp::Neg
        } else {
            return self.postfix();
        };
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error("expression nested too deeply", start));
        }
        let e = self.unary();
        self.depth -= 1;
        let e = e?;
        let span = start.to(e.span);
        Ok(Expr {
            kind: ExprKind::Unary(op, Box::new(e)),
            span,
        })
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        loop {
            self.within_length()?;
            if self.eat_sym(".") {
                let name = self.ident()?;
                if self.is_sym("(") {
                    let args = self.args()?;
                    let span = e.span.to(self.prev_span());
                    e = Expr {
                        kind: ExprKind::Call {
                            recv: Some(Box::new(e)),
                            name,
                            args,
                        },
                        span,
                    };
                } else {
                    let span = e.span.to(name.span);
                    e = Expr {
                        kind: ExprKind::Field(Box::new(e), name),
                        span,
                    };
                }
            } else if self.eat_sym("[") {
                let idx = self.expr()?;
                let end = self.expect_sym("]")?;
                let span = e.span.to(end);
                e = Expr {
                    kind: ExprKind::Index(Box::new(e), Box::new(idx)),
                    span,
                };
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let start = self.span();
        let tok = self.peek().clone();
        let kind = match tok {
            Tok::Int(digits) => {
                self.bump();
                match digits.parse::<i128>() {
                    Ok(n) => ExprKind::Int(n),
                    Err(_) => {
                        return Err(Diagnostic::error(
                            "integer literal too large (limit: 128-bit)",
                            start,
                        )
                        .with_label("this literal"))
                    }
                }
            }
            Tok::Kw("true") => self.leaf(ExprKind::Bool(true)),
            Tok::Kw("false") => self.leaf(ExprKind::Bool(false)),
            Tok::Kw("null") => self.leaf(ExprKind::Null),
            Tok::Kw("this") => self.leaf(ExprKind::This),
            Tok::Kw("result") => self.leaf(ExprKind::Result),
            Tok::Ident(name) => {
                let id = self.ident()?;
                if self.is_sym("(") {
                    let args = self.args()?;
                    ExprKind::Call {
                        recv: None,
                        name: id,
                        args,
                    }
                } else {
                    ExprKind::Name(name)
                }
            }
            Tok::Sym("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect_sym(")")?;
                return Ok(Expr {
                    kind: e.kind,
                    span: start.to(self.prev_span()),
                });
            }
            Tok::Kw(kw @ ("old" | "acc" | "untouched")) => {
                self.bump();
                self.expect_sym("(")?;
                let e = Box::new(self.expr()?);
                self.expect_sym(")")?;
                match kw {
                    "old" => ExprKind::Old(e),
                    "acc" => ExprKind::Acc(e),
                    _ => ExprKind::Untouched(e),
                }
            }
            Tok::Kw(kw @ ("opening" | "using")) => {
                self.bump();
                let call = Box::new(self.postfix()?);
                self.expect_kw("in")?;
                let body = Box::new(self.expr()?);
                if kw == "opening" {
                    ExprKind::Opening(call, body)
                } else {
                    ExprKind::Using(call, body)
                }
            }
            _ => return self.error("an expression"),
        };
        Ok(Expr {
            kind,
            span: start.to(self.prev_span()),
        })
    }

    fn leaf(&mut self, kind: ExprKind) -> ExprKind {
        self.bump();
        kind
    }

    // ---- the typing oracle for `*` ----

    fn is_int(&self, e: &Expr) -> bool {
        self.decls.is_some() && self.static_type(e) == Some(Type::Int)
    }

    fn lookup_local(&self, name: &str) -> Option<Type> {
        self.scope
            .locals
            .iter()
            .rev()
            .find_map(|s| s.get(name).cloned())
    }

    fn field_type(&self, class: &str, field: &str) -> Option<Type> {
        self.decls?.class(class)?.field(field).cloned()
    }

    /// The type of an expression as far as the declarations tell; `None` when unknown (the
    /// checker reports the error later).
    fn static_type(&self, e: &Expr) -> Option<Type> {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Length(_) => Some(Type::Int),
            ExprKind::Bool(_) | ExprKind::Acc(_) | ExprKind::Untouched(_) => Some(Type::Bool),
            ExprKind::Null => None,
            ExprKind::This => self.scope.class.clone().map(Type::Class),
            ExprKind::Result => self.scope.result.clone(),
            ExprKind::Name(n) => self
                .lookup_local(n)
                .or_else(|| self.field_type(self.scope.class.as_deref()?, n)),
            ExprKind::Field(obj, f) => match self.static_type(obj)? {
                Type::Class(c) => self.field_type(&c, &f.name),
                Type::Array(_) if f.name == "length" => Some(Type::Int),
                _ => None,
            },
            ExprKind::Call { recv, name, .. } => {
                let class = match recv {
                    Some(r) => match self.static_type(r)? {
                        Type::Class(c) => c,
                        _ => return None,
                    },
                    None => self.scope.class.clone()?,
                };
                Some(self.decls?.method(&class, &name.name)?.ret.clone())
            }
            ExprKind::Index(a, _) => match self.static_type(a)? {
                Type::Array(t) => Some(*t),
                _ => None,
            },
            ExprKind::Unary(UnOp::Neg, _) => Some(Type::Int),
            ExprKind::Unary(UnOp::Not, _) => Some(Type::Bool),
            ExprKind::Binary(op, _, _) => match op {
                BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Add | BinOp::Sub => Some(Type::Int),
                _ => Some(Type::Bool),
            },
            ExprKind::Cond(_, a, b) => self.static_type(a).or_else(|| self.static_type(b)),
            ExprKind::Old(x) | ExprKind::Opening(_, x) | ExprKind::Using(_, x) => {
                self.static_type(x)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `expr` as the precondition of a method of a class with `int x; int y; Cell c;`
    /// and a predicate `valid()`, a pure `int getX()`, and returns it as an S-expression.
    fn parse_pre(expr: &str) -> String {
        let src = format!(
            "class Cell {{ int x; int y; Cell c; predicate valid() {{ return acc(x); }} \
             pure int getX() requires valid(); {{ return x; }} \
             void m(int v, Cell d) requires {expr}; {{ }} }}"
        );
        let p = parse_program(&src).unwrap_or_else(|e| panic!("{}", e.message));
        let Member::Mutator(m) = &p.classes[0].members.last().unwrap() else {
            panic!()
        };
        sexp(&m.requires[0])
    }

    fn sexp(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Null => "null".into(),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Int(n) => n.to_string(),
            ExprKind::Name(n) => n.clone(),
            ExprKind::This => "this".into(),
            ExprKind::Result => "result".into(),
            ExprKind::Field(o, f) => format!("{}.{}", sexp(o), f.name),
            ExprKind::Call { recv, name, args } => {
                let r = recv
                    .as_ref()
                    .map(|r| format!("{}.", sexp(r)))
                    .unwrap_or_default();
                let a: Vec<String> = args.iter().map(sexp).collect();
                format!("{r}{}({})", name.name, a.join(","))
            }
            ExprKind::Index(a, i) => format!("{}[{}]", sexp(a), sexp(i)),
            ExprKind::Length(a) => format!("{}.length", sexp(a)),
            ExprKind::Unary(UnOp::Not, x) => format!("(! {})", sexp(x)),
            ExprKind::Unary(UnOp::Neg, x) => format!("(- {})", sexp(x)),
            ExprKind::Binary(op, l, r) => {
                let sym = if *op == BinOp::Star {
                    "sep"
                } else {
                    op.symbol()
                };
                format!("({sym} {} {})", sexp(l), sexp(r))
            }
            ExprKind::Cond(c, a, b) => format!("(? {} {} {})", sexp(c), sexp(a), sexp(b)),
            ExprKind::Old(x) => format!("old({})", sexp(x)),
            ExprKind::Opening(c, x) => format!("(opening {} {})", sexp(c), sexp(x)),
            ExprKind::Using(c, x) => format!("(using {} {})", sexp(c), sexp(x)),
            ExprKind::Acc(x) => format!("acc({})", sexp(x)),
            ExprKind::Untouched(x) => format!("untouched({})", sexp(x)),
        }
    }

    #[test]
    fn star_between_integers_is_multiplication() {
        assert_eq!(parse_pre("x = 2 * y"), "(= x (* 2 y))");
        assert_eq!(parse_pre("10 * v + 1 = x"), "(= (+ (* 10 v) 1) x)");
        assert_eq!(parse_pre("getX() * 2 = 4"), "(= (* getX() 2) 4)");
    }

    #[test]
    fn star_with_an_assertion_operand_is_separating() {
        assert_eq!(
            parse_pre("valid() * getX() = 0"),
            "(sep valid() (= getX() 0))"
        );
        assert_eq!(
            parse_pre("acc(this.x) * this.x >= 0"),
            "(sep acc(this.x) (>= this.x 0))"
        );
        assert_eq!(
            parse_pre("d != null * d.valid()"),
            "(sep (!= d null) d.valid())"
        );
    }

    #[test]
    fn comparisons_chain_and_precedence_follows_the_spec() {
        assert_eq!(
            parse_pre("0 <= x <= 10 && y = 2 * x"),
            "(&& (&& (<= 0 x) (<= x 10)) (= y (* 2 x)))"
        );
        assert_eq!(
            parse_pre("x = 1 || y = 2 && v = 3"),
            "(|| (= x 1) (&& (= y 2) (= v 3)))"
        );
        assert_eq!(
            parse_pre("x = 1 ? acc(y) : true"),
            "(? (= x 1) acc(y) true)"
        );
        assert_eq!(parse_pre("-x + !true = 1"), "(= (+ (- x) (! true)) 1)");
    }

    #[test]
    fn unicode_conjunction_and_opening() {
        assert_eq!(
            parse_pre("valid() ∧ getX() ≠ 0"),
            "(&& valid() (!= getX() 0))"
        );
        assert_eq!(
            parse_pre("(opening valid() in x) ≥ 1"),
            "(>= (opening valid() x) 1)"
        );
    }

    #[test]
    fn syntax_error_names_what_was_expected() {
        let e = parse_program("class A { int x }").unwrap_err();
        assert!(e.message.contains("expected"), "{}", e.message);
        assert_eq!(e.span.start, 16);
    }

    #[test]
    fn statements_parse() {
        let src = "class C { int f; C(int v) { f := v; } void m() { int i := f; if (i = 0) { f := 1; } \
                   else if (i = 1) { f := 2; } else { } while (i < 3) invariant acc(f); { i := i + 1; } } }\
                   main { C c := new C(1); c.m(); assert c.f = 1; }";
        let p = parse_program(src).unwrap();
        assert_eq!(p.classes[0].members.len(), 3);
        assert_eq!(p.main.unwrap().stmts.len(), 3);
    }
}
