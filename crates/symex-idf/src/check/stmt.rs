//! Checking statements and lowering them (constructor calls become `new` plus `init_C`).
use super::decls::{init_name, MethodKind};
use super::{expect_assignable, sort_of, CResult, Ctx, Mode};
use crate::diagnostics::Diagnostic;
use crate::ir::{self, Sort, StmtKind as S};
use crate::syntax::ast::{Block, Expr, ExprKind, Ident, Rhs, Span, Stmt, StmtKind, Type};
use std::collections::HashMap;

impl Ctx<'_> {
    /// Checks a block; `in_method` allows `return`.
    pub(super) fn block(&mut self, b: &Block, in_method: bool) -> CResult<Vec<ir::Stmt>> {
        self.locals.push(HashMap::new());
        let mut out = Vec::new();
        let mut result = Ok(());
        for s in &b.stmts {
            if let Err(d) = self.stmt(s, in_method, &mut out) {
                result = Err(d);
                break;
            }
        }
        self.locals.pop();
        result.map(|()| out)
    }

    fn spec<T>(&mut self, f: impl FnOnce(&mut Self) -> CResult<T>) -> CResult<T> {
        let saved = std::mem::replace(&mut self.mode, Mode::Spec);
        let r = f(self);
        self.mode = saved;
        r
    }

    fn ghost_call(&mut self, e: &Expr, want: MethodKind, what: &str) -> CResult<ir::Call> {
        let (call, kind, _) = self.spec(|c| c.call(e))?;
        if kind != want {
            return Err(Diagnostic::error(
                format!(
                    "`{what}` needs a {}",
                    if want == MethodKind::Pure {
                        "pure method call"
                    } else {
                        "predicate instance"
                    }
                ),
                e.span,
            )
            .with_label("wrong kind of method"));
        }
        Ok(call)
    }

    fn stmt(&mut self, st: &Stmt, in_method: bool, out: &mut Vec<ir::Stmt>) -> CResult<()> {
        let span = st.span;
        let mut push = |kind| out.push(ir::Stmt { kind, span });
        match &st.kind {
            StmtKind::VarDecl { ty, name, init } => {
                self.check_type(ty, name.span)?;
                let lowered = match init {
                    Some(rhs) => Some(self.rhs(&name.name, ty, rhs, span)?),
                    None => None,
                };
                self.declare(name, ty.clone())?;
                push(S::Decl(name.name.clone(), sort_of(ty)));
                for k in lowered.into_iter().flatten() {
                    push(k);
                }
            }
            StmtKind::Assign { name, .. } if self.params.contains(&name.name) => {
                return Err(Diagnostic::error(
                    format!(
                        "parameter `{}` cannot be assigned: the postcondition and the caller mean the value passed in",
                        name.name
                    ),
                    name.span,
                )
                .with_label("assigned here; copy the parameter into a local variable first"));
            }
            StmtKind::Assign { name, rhs } => match self.lookup(&name.name).cloned() {
                Some(ty) => {
                    for k in self.rhs(&name.name, &ty, rhs, span)? {
                        push(k);
                    }
                }
                None => {
                    let is_field = self
                        .class
                        .as_ref()
                        .and_then(|c| self.decls.class(c))
                        .and_then(|c| c.field(&name.name))
                        .is_some();
                    if !is_field {
                        return Err(Diagnostic::error(
                            format!("unknown variable `{}`", name.name),
                            name.span,
                        )
                        .with_label("not a local, parameter or field"));
                    }
                    let this = Expr {
                        kind: ExprKind::This,
                        span: name.span,
                    };
                    if let Rhs::Expr(value) = rhs {
                        let (t, field) = self.field_assign(&this, name, value)?;
                        push(S::FieldAssign(t, field.0, field.1));
                    } else {
                        // `f := new C(..)` on a field: through a hidden local (`#` cannot
                        // start a program identifier).
                        let probe = Expr {
                            kind: ExprKind::Field(Box::new(this.clone()), name.clone()),
                            span: name.span,
                        };
                        let (read, fty) = self.expr(&probe)?;
                        let ir::ExprKind::Field(obj, fid) = read.kind else {
                            return Err(Diagnostic::error("not a field", name.span));
                        };
                        let tmp = format!("#new_{}", name.name);
                        for k in self.rhs(&tmp, &fty, rhs, span)? {
                            push(k);
                        }
                        let value = ir::Expr {
                            kind: ir::ExprKind::Var(tmp, sort_of(&fty)),
                            span: name.span,
                        };
                        push(S::FieldAssign(*obj, fid, value));
                    }
                }
            },
            StmtKind::FieldAssign {
                target,
                field,
                value,
            } => {
                let (t, (f, v)) = self.field_assign(target, field, value)?;
                push(S::FieldAssign(t, f, v));
            }
            StmtKind::ArrayAssign {
                array,
                index,
                value,
            } => {
                let (a, at) = self.expr(array)?;
                let Type::Array(elem) = at else {
                    return Err(Diagnostic::error(
                        format!("`{at}` is not an array type"),
                        array.span,
                    )
                    .with_label("indexed here"));
                };
                let i = self.expect_ty(index, &Type::Int, "an array index")?;
                let v = self.expect_ty(value, &elem, "the array element")?;
                push(S::ArrayAssign(a, i, v, sort_of(&elem)));
            }
            StmtKind::Call { call } => {
                let (c, kind, _) = self.call(call)?;
                if !matches!(kind, MethodKind::Mutator) {
                    return Err(Diagnostic::error(
                        format!(
                            "`{}` is not a mutator: only mutator calls may stand as statements",
                            c.method
                        ),
                        call.span,
                    )
                    .with_label("use `use`, `open` or `close` for ghost operations"));
                }
                push(S::Call(None, c));
            }
            StmtKind::If { cond, then, els } => {
                let c = self.expect_ty(cond, &Type::Bool, "an `if` condition")?;
                let t = self.block(then, in_method)?;
                let e = match els {
                    Some(b) => self.block(b, in_method)?,
                    None => Vec::new(),
                };
                push(S::If(c, t, e));
            }
            StmtKind::While {
                cond,
                invariants,
                body,
            } => {
                let c = self.expect_ty(cond, &Type::Bool, "a `while` condition")?;
                let inv = self.assertions(invariants, Mode::Spec, span)?;
                let b = self.block(body, in_method)?;
                let mut modified = Vec::new();
                assigned_vars(&b, &mut modified);
                modified.retain(|n| self.lookup(n).is_some());
                modified.sort();
                modified.dedup();
                push(S::While {
                    cond: c,
                    invariant: inv,
                    body: b,
                    modified,
                });
            }
            StmtKind::Assert(e) => {
                let a = self.spec(|c| c.assertion(e))?;
                push(S::Assert(a));
            }
            StmtKind::Assume(e) => {
                let x = self.expect_ty(e, &Type::Bool, "an assumption")?;
                push(S::Assume(x));
            }
            StmtKind::Open(e) => {
                let c = self.ghost_call(e, MethodKind::Predicate, "open")?;
                push(S::Open(c));
            }
            StmtKind::Close(e) => {
                let c = self.ghost_call(e, MethodKind::Predicate, "close")?;
                push(S::Close(c));
            }
            StmtKind::Use(e) => {
                let c = self.ghost_call(e, MethodKind::Pure, "use")?;
                push(S::Use(c));
            }
            StmtKind::Join(e) => {
                let a = self.spec(|c| c.assertion(e))?;
                push(S::Join(a));
            }
            StmtKind::Return(e) => {
                let Some(ret) = self.result.clone().filter(|_| in_method) else {
                    return Err(Diagnostic::error(
                        "`return` outside of a method that returns a value",
                        span,
                    )
                    .with_label("unexpected `return`"));
                };
                let x = self.expect_ty(e, &ret, "the returned value")?;
                push(S::Return(x));
            }
        }
        Ok(())
    }

    fn expect_ty(&mut self, e: &Expr, want: &Type, what: &str) -> CResult<ir::Expr> {
        let (x, t) = self.expr(e)?;
        expect_assignable(want, &t, e.span, what)?;
        Ok(x)
    }

    fn field_assign(
        &mut self,
        target: &Expr,
        field: &Ident,
        value: &Expr,
    ) -> CResult<(ir::Expr, (ir::FieldId, ir::Expr))> {
        let probe = Expr {
            kind: ExprKind::Field(Box::new(target.clone()), field.clone()),
            span: target.span.to(field.span),
        };
        let (read, fty) = self.expr(&probe)?;
        let ir::ExprKind::Field(obj, fid) = read.kind else {
            return Err(Diagnostic::error("cannot assign to `length`", field.span)
                .with_label("array lengths are immutable"));
        };
        let v = self.expect_ty(value, &fty, &format!("field `{}`", field.name))?;
        Ok((*obj, (fid, v)))
    }

    /// Lowers `x := rhs` where `x` has type `ty`.
    fn rhs(&mut self, x: &str, ty: &Type, rhs: &Rhs, span: Span) -> CResult<Vec<S>> {
        match rhs {
            Rhs::Expr(
                e @ Expr {
                    kind: ExprKind::Call { .. },
                    ..
                },
            ) => {
                let (call, kind, ret) = self.call(e)?;
                match kind {
                    MethodKind::Pure => {
                        expect_assignable(ty, &ret, e.span, &format!("`{x}`"))?;
                        Ok(vec![S::Assign(
                            x.to_string(),
                            ir::Expr {
                                kind: ir::ExprKind::PureCall(call),
                                span: e.span,
                            },
                        )])
                    }
                    MethodKind::Mutator if ret != Type::Void => {
                        expect_assignable(ty, &ret, e.span, &format!("`{x}`"))?;
                        Ok(vec![S::Call(Some(x.to_string()), call)])
                    }
                    MethodKind::Predicate => Err(Diagnostic::error(
                        format!("predicate `{}` used as an expression", call.method),
                        e.span,
                    )
                    .with_label("a predicate is an assertion, not a value")),
                    _ => Err(Diagnostic::error(
                        format!("`{}` returns no value", call.method),
                        e.span,
                    )
                    .with_label("nothing to assign")),
                }
            }
            Rhs::Expr(e) => {
                let v = self.expect_ty(e, ty, &format!("`{x}`"))?;
                Ok(vec![S::Assign(x.to_string(), v)])
            }
            Rhs::New {
                class,
                args,
                span: new_span,
            } => {
                expect_assignable(
                    ty,
                    &Type::Class(class.name.clone()),
                    class.span,
                    &format!("`{x}`"),
                )?;
                let info = self.decls.class(&class.name).ok_or_else(|| {
                    Diagnostic::error(format!("unknown class `{}`", class.name), class.span)
                        .with_label("in this `new`")
                })?;
                let ctor = info.methods.get(&init_name(&class.name)).cloned();
                let mut out = vec![S::New(x.to_string(), class.name.clone())];
                match (args, ctor) {
                    (None, _) => {}
                    (Some(args), Some(sig)) => {
                        if sig.params.len() != args.len() {
                            return Err(Diagnostic::error(
                                format!(
                                    "constructor of `{}` takes {} argument(s) but {} were given",
                                    class.name,
                                    sig.params.len(),
                                    args.len()
                                ),
                                span,
                            ));
                        }
                        let mut args_ir = Vec::new();
                        for ((pname, pty), a) in sig.params.iter().zip(args) {
                            args_ir.push(self.expect_ty(
                                a,
                                pty,
                                &format!("parameter `{pname}`"),
                            )?);
                        }
                        let recv = ir::Expr {
                            kind: ir::ExprKind::Var(x.to_string(), Sort::Ref),
                            span: class.span,
                        };
                        let call = ir::Call::new(
                            class.name.clone(),
                            init_name(&class.name),
                            recv,
                            args_ir,
                            *new_span,
                        );
                        out.push(S::Call(None, call));
                    }
                    (Some(args), None) if args.is_empty() => {}
                    (Some(_), None) => {
                        return Err(Diagnostic::error(
                            format!("class `{}` has no constructor taking arguments", class.name),
                            class.span,
                        ))
                    }
                }
                Ok(out)
            }
            Rhs::NewArray { elem, len } => {
                self.check_type(elem, span)?;
                expect_assignable(
                    ty,
                    &Type::Array(Box::new(elem.clone())),
                    span,
                    &format!("`{x}`"),
                )?;
                let l = self.expect_ty(len, &Type::Int, "an array length")?;
                Ok(vec![S::NewArray(x.to_string(), sort_of(elem), l)])
            }
        }
    }
}

/// The variables a loop body assigns (havocked at the loop head; their sorts come from the store).
fn assigned_vars(stmts: &[ir::Stmt], out: &mut Vec<String>) {
    for s in stmts {
        match &s.kind {
            S::Assign(x, _) | S::New(x, _) | S::NewArray(x, _, _) | S::Call(Some(x), _) => {
                out.push(x.clone())
            }
            S::If(_, a, b) => {
                assigned_vars(a, out);
                assigned_vars(b, out);
            }
            S::While { body, .. } => assigned_vars(body, out),
            _ => {}
        }
    }
}
