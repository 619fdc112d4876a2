//! Name resolution and type checking: turns the surface tree into the checked [`crate::ir`].
pub mod decls;
mod expr;
mod preconditions;
mod stmt;

use crate::diagnostics::Diagnostic;
use crate::ir::{self, Assertion, Sort};
use crate::syntax::ast::{self, Ident, Member, Span, Type};
use decls::{init_name, Decls};
use std::collections::{HashMap, HashSet};

type CResult<T> = Result<T, Diagnostic>;

/// Where an expression stands, which decides what it may mention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Implementation code: no predicates, no `old`.
    Code,
    /// A precondition, predicate body, pure body, invariant or assertion.
    Spec,
    /// A postcondition: also `old` and `untouched`.
    Post,
}

struct Ctx<'a> {
    decls: &'a Decls,
    class: Option<String>,
    result: Option<Type>,
    locals: Vec<HashMap<String, Type>>,
    mode: Mode,
    /// The parameters of the mutator being checked: they may not be assigned (as in Viper and
    /// Chalice), so that the postcondition, consumed in the final store, speaks of the values
    /// the caller passed (Figure 8 produces it with the call's arguments).
    params: HashSet<String>,
}

/// The type of `null`: "null" is a keyword, so it never names a class.
/// A constructor's precondition is one `acc` per field joined by `*`, which every later pass
/// recurses over: a bound keeps hostile input from overflowing the stack.
const MAX_FIELDS: usize = 1000;

fn null_type() -> Type {
    Type::Class("null".to_string())
}

pub fn sort_of(t: &Type) -> Sort {
    match t {
        Type::Int => Sort::Int,
        Type::Bool => Sort::Bool,
        _ => Sort::Ref,
    }
}

fn is_ref(t: &Type) -> bool {
    matches!(t, Type::Class(_) | Type::Array(_))
}

/// Whether a value of type `from` may be stored where `to` is expected.
fn assignable(to: &Type, from: &Type) -> bool {
    to == from
        || (is_ref(to) && *from == null_type())
        || (*to == Type::Class("Object".to_string()) && is_ref(from))
}

/// The type of `c ? a : b` with branches of types `a` and `b`: the one the other may be stored
/// in (`null` fits only a reference type), or none.
fn common_type(a: &Type, b: &Type) -> Option<Type> {
    if assignable(a, b) {
        Some(a.clone())
    } else if assignable(b, a) {
        Some(b.clone())
    } else {
        None
    }
}

impl<'a> Ctx<'a> {
    fn new(decls: &'a Decls, class: Option<&str>, mode: Mode) -> Ctx<'a> {
        Ctx {
            decls,
            class: class.map(str::to_string),
            result: None,
            locals: vec![HashMap::new()],
            mode,
            params: HashSet::new(),
        }
    }

    fn lookup(&self, name: &str) -> Option<&Type> {
        self.locals.iter().rev().find_map(|s| s.get(name))
    }

    fn declare(&mut self, name: &Ident, ty: Type) -> CResult<()> {
        if self.lookup(&name.name).is_some() {
            return Err(Diagnostic::error(
                format!("`{}` is already declared", name.name),
                name.span,
            )
            .with_label("second declaration"));
        }
        self.locals
            .last_mut()
            .expect("a scope")
            .insert(name.name.clone(), ty);
        Ok(())
    }

    fn check_type(&self, t: &Type, span: Span) -> CResult<()> {
        match t {
            Type::Class(c) if self.decls.class(c).is_none() => {
                Err(Diagnostic::error(format!("unknown class `{c}`"), span)
                    .with_label("in this declaration"))
            }
            Type::Array(e) => self.check_type(e, span),
            _ => Ok(()),
        }
    }

    fn with_params(&mut self, params: &[ast::Param]) -> CResult<Vec<(String, Sort)>> {
        let mut out = Vec::new();
        for p in params {
            self.check_type(&p.ty, p.name.span)?;
            self.declare(&p.name, p.ty.clone())?;
            out.push((p.name.name.clone(), sort_of(&p.ty)));
        }
        Ok(out)
    }

    fn assertions(&mut self, list: &[ast::Expr], mode: Mode, span: Span) -> CResult<Assertion> {
        let saved = std::mem::replace(&mut self.mode, mode);
        let mut acc = Assertion::truth(span);
        for e in list {
            match self.assertion(e) {
                Ok(a) => acc = Assertion::sep(acc, a),
                Err(d) => {
                    self.mode = saved;
                    return Err(d);
                }
            }
        }
        self.mode = saved;
        Ok(acc)
    }
}

/// Checks a parsed program and lowers it to the verifier's form.
pub fn check_program(program: &ast::Program) -> CResult<ir::Program> {
    let decls = Decls::collect(program);
    let mut out = ir::Program {
        warnings: program.warnings.clone(),
        ..ir::Program::default()
    };
    check_unique_names(program)?;
    let mut pure_order = 0;
    for class in &program.classes {
        let c = &class.name.name;
        let mut fields = Vec::new();
        for m in &class.members {
            if let Member::Field { ty, name } = m {
                Ctx::new(&decls, Some(c), Mode::Code).check_type(ty, name.span)?;
                if fields.len() == MAX_FIELDS {
                    return Err(Diagnostic::error(
                        format!("class `{c}` has too many fields (more than {MAX_FIELDS})"),
                        name.span,
                    ));
                }
                fields.push(ir::FieldId::new(c, &name.name, sort_of(ty)));
            }
        }
        out.classes.insert(
            c.clone(),
            ir::Class {
                name: c.clone(),
                fields: fields.clone(),
            },
        );
        for m in &class.members {
            match m {
                Member::Field { .. } => {}
                Member::Constructor(method) | Member::Mutator(method) => {
                    let is_ctor = matches!(m, Member::Constructor(_));
                    let mutator = check_mutator(&decls, c, method, is_ctor, &fields)?;
                    let key = (c.clone(), mutator.name.clone());
                    out.order.push(key.clone());
                    out.mutators.insert(key, mutator);
                }
                Member::Pure {
                    ret,
                    name,
                    params,
                    requires,
                    body,
                } => {
                    let mut ctx = Ctx::new(&decls, Some(c), Mode::Spec);
                    ctx.check_type(ret, name.span)?;
                    let ps = ctx.with_params(params)?;
                    let pre = ctx.assertions(requires, Mode::Spec, name.span)?;
                    let (body_ir, body_ty) = ctx.expr(body)?;
                    expect_assignable(ret, &body_ty, body.span, "the pure method's result")?;
                    let key = (c.clone(), name.name.clone());
                    out.order.push(key.clone());
                    let pure = ir::Pure {
                        class: c.clone(),
                        name: name.name.clone(),
                        params: ps,
                        ret: sort_of(ret),
                        pre,
                        body: body_ir,
                        span: name.span,
                        order: pure_order,
                    };
                    pure_order += 1;
                    out.pures.insert(key, pure);
                }
                Member::Predicate { name, params, body } => {
                    let mut ctx = Ctx::new(&decls, Some(c), Mode::Spec);
                    let ps = ctx.with_params(params)?;
                    let body = ctx.assertion(body)?;
                    let key = (c.clone(), name.name.clone());
                    out.order.push(key.clone());
                    out.predicates.insert(
                        key,
                        ir::Predicate {
                            class: c.clone(),
                            name: name.name.clone(),
                            params: ps,
                            body,
                            span: name.span,
                        },
                    );
                }
            }
        }
    }
    if let Some(block) = &program.main {
        let mut ctx = Ctx::new(&decls, None, Mode::Code);
        let body = ctx.block(block, false)?;
        out.main = Some((body, block.span));
    }
    preconditions::check_precondition_recursion(&out)?;
    Ok(out)
}

fn expect_assignable(to: &Type, from: &Type, span: Span, what: &str) -> CResult<()> {
    if assignable(to, from) {
        Ok(())
    } else {
        Err(Diagnostic::error(
            format!("type mismatch: {what} must have type `{to}`, found `{from}`"),
            span,
        )
        .with_label(format!("this has type `{from}`")))
    }
}

fn check_unique_names(program: &ast::Program) -> CResult<()> {
    let mut classes = HashSet::new();
    for class in &program.classes {
        let c = &class.name;
        if c.name == "Object" || !classes.insert(c.name.clone()) {
            return Err(
                Diagnostic::error(format!("class `{}` is declared twice", c.name), c.span)
                    .with_label("second declaration"),
            );
        }
        let mut names = HashSet::new();
        for m in &class.members {
            let name = match m {
                Member::Field { name, .. }
                | Member::Pure { name, .. }
                | Member::Predicate { name, .. } => name,
                Member::Mutator(method) | Member::Constructor(method) => &method.name,
            };
            let key = match m {
                Member::Constructor(_) => init_name(&c.name),
                _ => name.name.clone(),
            };
            if !names.insert(key) {
                return Err(Diagnostic::error(
                    format!("`{}` is declared twice in class `{}`", name.name, c.name),
                    name.span,
                )
                .with_label("second declaration"));
            }
        }
    }
    Ok(())
}

fn check_mutator(
    decls: &Decls,
    class: &str,
    m: &ast::Method,
    is_ctor: bool,
    fields: &[ir::FieldId],
) -> CResult<ir::Mutator> {
    let mut ctx = Ctx::new(decls, Some(class), Mode::Spec);
    if m.ret != Type::Void {
        ctx.check_type(&m.ret, m.name.span)?;
    }
    let params = ctx.with_params(&m.params)?;
    ctx.params = params.iter().map(|(x, _)| x.clone()).collect();
    let mut pre = ctx.assertions(&m.requires, Mode::Spec, m.name.span)?;
    if is_ctor {
        // The paper's §4: a constructor's precondition starts with `acc` to every field.
        let this = ir::Expr {
            kind: ir::ExprKind::Var("this".into(), Sort::Ref),
            span: m.name.span,
        };
        for f in fields.iter().rev() {
            let acc = Assertion {
                kind: ir::AssertionKind::Acc(this.clone(), f.clone()),
                span: m.name.span,
            };
            pre = Assertion::sep(acc, pre);
        }
    }
    ctx.result = (m.ret != Type::Void).then(|| m.ret.clone());
    let post = ctx.assertions(&m.ensures, Mode::Post, m.name.span)?;
    ctx.mode = Mode::Code;
    let body = ctx.block(&m.body, true)?;
    Ok(ir::Mutator {
        class: class.to_string(),
        name: if is_ctor {
            init_name(class)
        } else {
            m.name.name.clone()
        },
        params,
        ret: (m.ret != Type::Void).then(|| sort_of(&m.ret)),
        pre,
        post,
        body,
        span: m.name.span,
        is_constructor: is_ctor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_program;

    fn check(src: &str) -> CResult<ir::Program> {
        check_program(&parse_program(src)?)
    }

    fn err(src: &str) -> String {
        check(src).unwrap_err().message
    }

    #[test]
    fn cell_of_figure_2_checks() {
        let p = check(
            "class Cell { int x; Cell() ensures acc(this.x) ∧ this.x = 0; { this.x := 0; } \
             void setX(int v) requires acc(this.x); ensures acc(this.x) ∧ this.x = v; { this.x := v; } }\
             main { Cell c1 := new Cell(); c1.setX(5); assert c1.x = 5; }",
        )
        .unwrap();
        assert!(p.mutator("Cell", "init_Cell").unwrap().is_constructor);
        assert_eq!(p.main.unwrap().0.len(), 5);
    }

    #[test]
    fn type_errors_are_reported_with_their_cause() {
        assert!(err("class A { int x; void m() { x := true; } }").contains("type mismatch"));
        assert!(err("class A { void m() { y := 1; } }").contains("unknown variable `y`"));
        assert!(
            err("class A { predicate p() { return true; } void m() { bool b := p(); } }")
                .contains("predicate")
        );
        assert!(err("class A { int x; void m() requires old(x) = 1; { } }").contains("old"));
        assert!(err("class A { B b; }").contains("unknown class `B`"));
        assert!(err("class A { int x; int x; }").contains("declared twice"));
        assert!(err("class A { void m() { int i; int i; } }").contains("already declared"));
        assert!(err("class A { void m() { this.m(1); } }").contains("argument"));
        assert!(err("main { int i := 1; i.f := 2; }").contains("not an object"));
    }

    #[test]
    fn conditional_branches_need_a_common_type() {
        // `null` fits only a reference type (this used to type as `int` and panic the verifier).
        assert!(err("main { int i := true ? null : 1; }").contains("branches of `?:`"));
        assert!(err("main { int i := true ? 1 : null; }").contains("branches of `?:`"));
        // The wider of a class and `Object` is `Object`, whichever branch has it.
        let widened = "class A { } main { A a := new A; Object o := a; A b := true ? a : o; }";
        assert!(err(widened).contains("type mismatch"));
        let widened = "class A { } main { A a := new A; Object o := a; A b := true ? o : a; }";
        assert!(err(widened).contains("type mismatch"));
        check("class A { } main { A a := new A; A b := true ? null : a; A c := true ? a : null; }")
            .unwrap();
    }

    #[test]
    fn bare_field_names_mean_fields_of_this() {
        let p = check("class A { int x; void m() requires acc(x); { x := x + 1; } }").unwrap();
        let m = p.mutator("A", "m").unwrap();
        assert!(matches!(m.body[0].kind, ir::StmtKind::FieldAssign(..)));
    }
}
