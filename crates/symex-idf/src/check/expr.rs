//! Checking expressions and assertions.
use super::decls::MethodKind;
use super::{assignable, common_type, expect_assignable, null_type, sort_of, CResult, Ctx, Mode};
use crate::diagnostics::Diagnostic;
use crate::ir::{self, Assertion, AssertionKind, Sort};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Ident, Span, Type, UnOp};

fn mk(kind: ir::ExprKind, span: Span) -> ir::Expr {
    ir::Expr { kind, span }
}

fn this_expr(span: Span) -> ir::Expr {
    mk(ir::ExprKind::Var("this".into(), Sort::Ref), span)
}

impl Ctx<'_> {
    fn this_class(&self, span: Span, what: &str) -> CResult<String> {
        self.class.clone().ok_or_else(|| {
            Diagnostic::error(format!("{what} outside of a class"), span)
                .with_label("`main` has no `this`")
        })
    }

    /// Resolves a field of the class `class` (the type of the receiver).
    fn field(
        &self,
        recv_ty: &Type,
        field: &Ident,
        recv_span: Span,
    ) -> CResult<(ir::FieldId, Type)> {
        let class = match recv_ty {
            Type::Class(c) if *c != "null" => c,
            other => {
                return Err(Diagnostic::error(
                    format!("`{other}` is not an object type"),
                    recv_span,
                )
                .with_label(format!(
                    "has type `{other}`, so it has no field `{}`",
                    field.name
                )))
            }
        };
        let ty = self
            .decls
            .class(class)
            .and_then(|c| c.field(&field.name))
            .ok_or_else(|| {
                Diagnostic::error(
                    format!("class `{class}` has no field `{}`", field.name),
                    field.span,
                )
                .with_label("unknown field")
            })?;
        Ok((
            ir::FieldId::new(class, &field.name, sort_of(ty)),
            ty.clone(),
        ))
    }

    /// Resolves `recv.name(args)`; returns the call, its kind and its result type.
    pub(super) fn call(&mut self, e: &Expr) -> CResult<(ir::Call, MethodKind, Type)> {
        let ExprKind::Call { recv, name, args } = &e.kind else {
            return Err(
                Diagnostic::error("expected a method call", e.span).with_label("not a call")
            );
        };
        let (recv_ir, recv_ty) = match recv {
            Some(r) => self.expr(r)?,
            None => {
                let c = self.this_class(e.span, "a call without receiver")?;
                (this_expr(name.span), Type::Class(c))
            }
        };
        let class = match &recv_ty {
            Type::Class(c) if *c != "null" => c.clone(),
            other => {
                return Err(Diagnostic::error(
                    format!("`{other}` is not an object type"),
                    recv_ir.span,
                )
                .with_label(format!("has no method `{}`", name.name)))
            }
        };
        let sig = self
            .decls
            .method(&class, &name.name)
            .cloned()
            .ok_or_else(|| {
                Diagnostic::error(
                    format!("class `{class}` has no method `{}`", name.name),
                    name.span,
                )
                .with_label("unknown method")
            })?;
        if sig.params.len() != args.len() {
            return Err(Diagnostic::error(
                format!(
                    "`{}` takes {} argument(s) but {} were given",
                    name.name,
                    sig.params.len(),
                    args.len()
                ),
                e.span,
            )
            .with_label("wrong number of arguments"));
        }
        let mut args_ir = Vec::new();
        for ((pname, pty), a) in sig.params.iter().zip(args) {
            let (a_ir, a_ty) = self.expr(a)?;
            expect_assignable(pty, &a_ty, a.span, &format!("parameter `{pname}`"))?;
            args_ir.push(a_ir);
        }
        let call = ir::Call::new(class, name.name.clone(), recv_ir, args_ir, e.span);
        Ok((call, sig.kind, sig.ret))
    }

    fn expect(&mut self, e: &Expr, want: &Type, what: &str) -> CResult<ir::Expr> {
        let (x, t) = self.expr(e)?;
        expect_assignable(want, &t, e.span, what)?;
        Ok(x)
    }

    fn require_post(&self, span: Span, what: &str) -> CResult<()> {
        if self.mode == Mode::Post {
            Ok(())
        } else {
            Err(Diagnostic::error(
                format!("`{what}` may only be used in a postcondition"),
                span,
            )
            .with_label(format!("`{what}` here")))
        }
    }

    /// Checks an expression (not an assertion) and returns it with its type.
    pub(super) fn expr(&mut self, e: &Expr) -> CResult<(ir::Expr, Type)> {
        let s = e.span;
        Ok(match &e.kind {
            ExprKind::Null => (mk(ir::ExprKind::Null, s), null_type()),
            ExprKind::Bool(b) => (mk(ir::ExprKind::Bool(*b), s), Type::Bool),
            ExprKind::Int(n) => (mk(ir::ExprKind::Int(*n), s), Type::Int),
            ExprKind::This => {
                let c = self.this_class(s, "`this`")?;
                (this_expr(s), Type::Class(c))
            }
            ExprKind::Result => match &self.result {
                Some(t) if self.mode == Mode::Post => (mk(ir::ExprKind::Var("result".into(), sort_of(t)), s), t.clone()),
                _ => {
                    return Err(Diagnostic::error("`result` is only defined in the postcondition of a method that returns a value", s)
                        .with_label("`result` here"))
                }
            },
            ExprKind::Name(n) => {
                if let Some(t) = self.lookup(n).cloned() {
                    (mk(ir::ExprKind::Var(n.clone(), sort_of(&t)), s), t)
                } else if let Some(c) = self.class.clone().filter(|c| self.decls.class(c).and_then(|i| i.field(n)).is_some()) {
                    let (f, t) = self.field(&Type::Class(c), &Ident { name: n.clone(), span: s }, s)?;
                    (mk(ir::ExprKind::Field(Box::new(this_expr(s)), f), s), t)
                } else {
                    return Err(Diagnostic::error(format!("unknown variable `{n}`"), s).with_label("not a local, parameter or field"));
                }
            }
            ExprKind::Field(obj, f) => {
                let (o, ot) = self.expr(obj)?;
                if let (Type::Array(_), "length") = (&ot, f.name.as_str()) {
                    (mk(ir::ExprKind::Length(Box::new(o)), s), Type::Int)
                } else {
                    let (fid, t) = self.field(&ot, f, obj.span)?;
                    (mk(ir::ExprKind::Field(Box::new(o), fid), s), t)
                }
            }
            ExprKind::Length(a) => {
                let (x, _) = self.expr(a)?;
                (mk(ir::ExprKind::Length(Box::new(x)), s), Type::Int)
            }
            ExprKind::Call { name, .. } => {
                let (call, kind, ret) = self.call(e)?;
                match kind {
                    MethodKind::Pure => (mk(ir::ExprKind::PureCall(call), s), ret),
                    MethodKind::Predicate => {
                        return Err(Diagnostic::error(format!("predicate `{}` used as an expression", name.name), s)
                            .with_label("a predicate is an assertion: it may stand in contracts, predicate bodies and `assert`, not inside an expression"))
                    }
                    MethodKind::Mutator | MethodKind::Constructor => {
                        return Err(Diagnostic::error(format!("mutator `{}` called inside an expression", name.name), s)
                            .with_label("a mutator call must be a statement: `x := o.m(..);` or `o.m(..);`"))
                    }
                }
            }
            ExprKind::Index(a, i) => {
                let (ax, at) = self.expr(a)?;
                let Type::Array(elem) = at else {
                    return Err(Diagnostic::error(format!("`{at}` is not an array type"), a.span).with_label("indexed here"));
                };
                let ix = self.expect(i, &Type::Int, "an array index")?;
                (mk(ir::ExprKind::Index(Box::new(ax), Box::new(ix), sort_of(&elem)), s), *elem)
            }
            ExprKind::Unary(op, x) => {
                let t = if *op == UnOp::Not { Type::Bool } else { Type::Int };
                let xi = self.expect(x, &t, "the operand")?;
                (mk(ir::ExprKind::Unary(*op, Box::new(xi)), s), t)
            }
            ExprKind::Binary(op, l, r) => self.binary(*op, l, r, s)?,
            ExprKind::Cond(c, a, b) => {
                let ci = self.expect(c, &Type::Bool, "a condition")?;
                let (ai, at) = self.expr(a)?;
                let (bi, bt) = self.expr(b)?;
                let Some(t) = common_type(&at, &bt) else {
                    return Err(Diagnostic::error(format!("the branches of `?:` have types `{at}` and `{bt}`"), s)
                        .with_label("branches differ in type"));
                };
                (mk(ir::ExprKind::Cond(Box::new(ci), Box::new(ai), Box::new(bi)), s), t)
            }
            ExprKind::Old(x) => {
                self.require_post(s, "old")?;
                let (xi, t) = self.expr(x)?;
                (mk(ir::ExprKind::Old(Box::new(xi)), s), t)
            }
            ExprKind::Opening(call, body) => {
                let (c, kind, _) = self.call(call)?;
                if kind != MethodKind::Predicate {
                    return Err(Diagnostic::error("`opening` needs a predicate instance", call.span).with_label("not a predicate"));
                }
                let (bi, t) = self.expr(body)?;
                (mk(ir::ExprKind::Opening(c, Box::new(bi)), s), t)
            }
            ExprKind::Using(call, body) => {
                let (c, kind, _) = self.call(call)?;
                if kind != MethodKind::Pure {
                    return Err(Diagnostic::error("`using` needs a pure method call", call.span).with_label("not a pure method"));
                }
                let (bi, t) = self.expr(body)?;
                (mk(ir::ExprKind::Using(c, Box::new(bi)), s), t)
            }
            ExprKind::Acc(_) | ExprKind::Untouched(_) => {
                return Err(Diagnostic::error("an assertion stands where an expression is expected", s)
                    .with_label("`acc` and `untouched` are assertions"))
            }
        })
    }

    fn binary(&mut self, op: BinOp, l: &Expr, r: &Expr, s: Span) -> CResult<(ir::Expr, Type)> {
        let bin =
            |a: ir::Expr, b: ir::Expr| mk(ir::ExprKind::Binary(op, Box::new(a), Box::new(b)), s);
        Ok(match op {
            BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Add | BinOp::Sub => {
                let a = self.expect(l, &Type::Int, "an arithmetic operand")?;
                let b = self.expect(r, &Type::Int, "an arithmetic operand")?;
                (bin(a, b), Type::Int)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let a = self.expect(l, &Type::Int, "a compared operand")?;
                let b = self.expect(r, &Type::Int, "a compared operand")?;
                (bin(a, b), Type::Bool)
            }
            BinOp::Eq | BinOp::Ne => {
                let (a, at) = self.expr(l)?;
                let (b, bt) = self.expr(r)?;
                if !assignable(&at, &bt) && !assignable(&bt, &at) {
                    return Err(Diagnostic::error(format!("cannot compare `{at}` with `{bt}`"), s)
                        .with_label("operands of different types"));
                }
                (bin(a, b), Type::Bool)
            }
            BinOp::And | BinOp::Or => {
                let a = self.expect(l, &Type::Bool, "a boolean operand")?;
                let b = self.expect(r, &Type::Bool, "a boolean operand")?;
                (bin(a, b), Type::Bool)
            }
            BinOp::Star => {
                return Err(Diagnostic::error("separating conjunction `*` inside an expression", s)
                    .with_label("`*` joins assertions here, but an expression is expected (both operands must be `int` for multiplication)"))
            }
        })
    }

    /// Whether `e` is an assertion that is not a plain boolean expression (it holds
    /// permissions, predicates or `untouched`).
    fn is_spatial(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Acc(_) | ExprKind::Untouched(_) => true,
            ExprKind::Binary(BinOp::Star, _, _) => true,
            ExprKind::Binary(BinOp::And, l, r) => self.is_spatial(l) || self.is_spatial(r),
            ExprKind::Cond(_, a, b) => self.is_spatial(a) || self.is_spatial(b),
            ExprKind::Call { recv, name, .. } => {
                let class = match recv {
                    None => self.class.clone(),
                    Some(_) => None,
                };
                let class = class.or_else(|| self.receiver_class(recv.as_deref()?));
                class
                    .and_then(|c| self.decls.method(&c, &name.name))
                    .is_some_and(|sig| sig.kind == MethodKind::Predicate)
            }
            _ => false,
        }
    }

    fn receiver_class(&self, recv: &Expr) -> Option<String> {
        let mut probe = Ctx {
            decls: self.decls,
            class: self.class.clone(),
            result: self.result.clone(),
            locals: self.locals.clone(),
            mode: Mode::Post,
            params: self.params.clone(),
        };
        match probe.expr(recv).ok()?.1 {
            Type::Class(c) => Some(c),
            _ => None,
        }
    }

    /// Checks an assertion (`spec/idf-language.md`, "assertion").
    pub(super) fn assertion(&mut self, e: &Expr) -> CResult<Assertion> {
        if self.mode == Mode::Code {
            return Err(Diagnostic::error(
                "assertion in implementation code",
                e.span,
            ));
        }
        let s = e.span;
        let kind = match &e.kind {
            ExprKind::Acc(target) => self.acc(target)?,
            ExprKind::Untouched(a) => {
                self.require_post(s, "untouched")?;
                AssertionKind::Untouched(Box::new(self.assertion(a)?))
            }
            ExprKind::Binary(BinOp::Star, l, r) => {
                AssertionKind::Sep(Box::new(self.assertion(l)?), Box::new(self.assertion(r)?))
            }
            ExprKind::Binary(BinOp::And, l, r) if self.is_spatial(e) => {
                AssertionKind::Sep(Box::new(self.assertion(l)?), Box::new(self.assertion(r)?))
            }
            ExprKind::Binary(BinOp::Or, l, r) if self.is_spatial(l) || self.is_spatial(r) => {
                return Err(Diagnostic::error(
                    "disjunction of assertions that hold permissions is not supported",
                    s,
                )
                .with_label("use `c ? a : b` to choose between assertions"))
            }
            ExprKind::Cond(c, a, b) if self.is_spatial(e) => {
                let ci = self.expect(c, &Type::Bool, "a condition")?;
                AssertionKind::Cond(
                    ci,
                    Box::new(self.assertion(a)?),
                    Box::new(self.assertion(b)?),
                )
            }
            ExprKind::Call { .. } if self.is_spatial(e) => {
                let (call, _, _) = self.call(e)?;
                AssertionKind::Pred(call)
            }
            _ => AssertionKind::Pure(self.expect(e, &Type::Bool, "an assertion")?),
        };
        Ok(Assertion { kind, span: s })
    }

    fn acc(&mut self, target: &Expr) -> CResult<AssertionKind> {
        let (recv, field) = match &target.kind {
            ExprKind::Field(obj, f) => (self.expr(obj)?, f.clone()),
            ExprKind::Name(n) if self.lookup(n).is_none() => {
                let c = self.this_class(target.span, "`acc` of a bare field")?;
                (
                    (this_expr(target.span), Type::Class(c)),
                    Ident {
                        name: n.clone(),
                        span: target.span,
                    },
                )
            }
            _ => {
                return Err(Diagnostic::error(
                    "`acc` needs a field: `acc(e.f)` or `acc(a.elems)`",
                    target.span,
                )
                .with_label("not a field"))
            }
        };
        let ((obj, obj_ty), f) = (recv, field);
        if let (Type::Array(elem), "elems") = (&obj_ty, f.name.as_str()) {
            return Ok(AssertionKind::AccElems(obj, sort_of(elem)));
        }
        let (fid, _) = self.field(&obj_ty, &f, obj.span)?;
        Ok(AssertionKind::Acc(obj, fid))
    }
}
