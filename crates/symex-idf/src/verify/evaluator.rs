//! `eval` (the paper's Figure 5): expressions to terms. A field read needs a matching chunk;
//! a pure call consumes its precondition to get the snapshot its function is applied to;
//! `old` evaluates in the old heap; `opening` and `using` are ghost expressions.
//!
//! The continuation receives the state because evaluation may extend the path condition
//! (§4.1: the `use` equation of every evaluated pure call) and, with inference, open
//! predicates (an equivalence: the heap still describes the same concrete heap).
use super::brancher::branch;
use super::ghost::{self, Target};
use super::terms::{self, null, pure_func};
use super::{call, consumer};
use super::{collect, Obligation, State, VResult, Verifier, K};
use crate::ir::{BinOp, Call, Expr, ExprKind, UnOp};
use std::sync::Arc;
use symex_expr::Term;

pub fn eval(v: &mut Verifier, state: State, e: &Expr, k: K<Term>) -> VResult {
    match &e.kind {
        ExprKind::Null => k(v, state, null()),
        ExprKind::Bool(b) => k(v, state, Term::bool(*b)),
        ExprKind::Int(n) => k(v, state, Term::int(*n)),
        ExprKind::Var(x, _) => match state.var(x).cloned() {
            Some(t) => k(v, state, t),
            None => Err(v.fail(&state, e.span, format!("variable `{x}` has no value here"))),
        },
        ExprKind::Field(obj, f) => eval(v, state, obj, &mut |v, s, t| {
            let key = field_key(f);
            read(v, s, Target::Field(key), &t, e, k)
        }),
        ExprKind::PureCall(call) => eval_call_args(v, state, call, &mut |v, s, targs| {
            pure_call(v, s, call, targs, k)
        }),
        ExprKind::Index(a, i, elem) => eval(v, state, a, &mut |v, s, ta| {
            eval(v, s, i, &mut |v, s, ti| {
                let in_bounds = Term::int(0).ile(&ti).and(&ti.ilt(&terms::length(&ta)));
                if !v.proves(&s, &in_bounds) {
                    return Err(v.fail(
                        &s,
                        e.span,
                        format!("array index might be out of bounds: {}", v.text(e.span)),
                    ));
                }
                let (ti, elem) = (ti.clone(), *elem);
                read(v, s, Target::Elems(elem), &ta, e, &mut |v, s, contents| {
                    k(v, s, terms::array_get(&contents, &ti))
                })
            })
        }),
        ExprKind::Length(a) => eval(v, state, a, &mut |v, mut s, ta| {
            if !v.proves(&s, &ta.eq(&null()).not()) {
                return Err(v.fail(
                    &s,
                    e.span,
                    format!("array might be null: {}", v.text(e.span)),
                ));
            }
            let len = terms::length(&ta);
            s.pc.assume(Term::int(0).ile(&len));
            k(v, s, len)
        }),
        ExprKind::Unary(op, x) => eval(v, state, x, &mut |v, s, t| {
            let r = match op {
                UnOp::Not => t.not(),
                UnOp::Neg => t.ineg(),
            };
            k(v, s, r)
        }),
        ExprKind::Binary(BinOp::And, l, r) => eval(v, state, l, &mut |v, s, tl| {
            short_circuit(v, s, &tl, r, k, |tl, tr| tl.and(tr))
        }),
        ExprKind::Binary(BinOp::Or, l, r) => eval(v, state, l, &mut |v, s, tl| {
            short_circuit(v, s, &tl.not(), r, k, |ntl, tr| ntl.not().or(tr))
        }),
        ExprKind::Binary(op, l, r) => eval(v, state, l, &mut |v, s, tl| {
            eval(v, s, r, &mut |v, s, tr| {
                if matches!(op, BinOp::Div | BinOp::Mod)
                    && !v.proves(&s, &tr.eq(&Term::int(0)).not())
                {
                    return Err(v.fail(
                        &s,
                        e.span,
                        format!("division by zero might occur: {}", v.text(e.span)),
                    ));
                }
                k(v, s, arith(*op, &tl, &tr))
            })
        }),
        ExprKind::Cond(c, a, b) => {
            eval(v, state, c, &mut |v, s, tc| conditional(v, s, &tc, a, b, k))
        }
        ExprKind::Old(x) => {
            let old = state.old_state();
            v.viewing_old += 1;
            let r = eval(v, old, x, &mut |v, so, t| {
                let mut s = state.clone();
                s.pc = so.pc;
                // The rest of the path is back in the current state.
                let outer = std::mem::replace(&mut v.viewing_old, 0);
                let r = k(v, s, t);
                v.viewing_old = outer;
                r
            });
            v.viewing_old -= 1;
            r
        }
        ExprKind::Opening(call, body) => {
            let closes_before = v.inferred_closes;
            eval_call_args(v, state.clone(), call, &mut |v, s, targs| {
                let ob = Obligation::at_site(
                    "`opening` needs a predicate instance that might not be held",
                    call.span,
                );
                super::termination::inside_opening(v, |v| {
                    ghost::open(v, s, call, targs, &ob, &mut |v, opened, ()| {
                        eval(v, opened, body, &mut |v, so, t| {
                            let mut s = state.clone();
                            s.pc = so.pc;
                            // The rest of the evaluation is outside this `opening`, in the
                            // heap from before it (and before any close it inferred).
                            super::termination::outside_opening(v, |v| {
                                super::termination::with_closes(v, closes_before, |v| k(v, s, t))
                            })
                        })
                    })
                })
            })
        }
        ExprKind::Using(call, body) => eval_call_args(v, state, call, &mut |v, s, targs| {
            ghost::use_pure(v, s, call, targs, &mut |v, s, ()| eval(v, s, body, k))
        }),
    }
}

pub fn field_key(f: &crate::ir::FieldId) -> Arc<str> {
    f.key.clone()
}

fn arith(op: BinOp, l: &Term, r: &Term) -> Term {
    match op {
        BinOp::Add => l.iadd(r),
        BinOp::Sub => l.isub(r),
        BinOp::Mul => l.imul(r),
        BinOp::Div => l.idiv(r),
        BinOp::Mod => l.imod(r),
        BinOp::Lt => l.ilt(r),
        BinOp::Le => l.ile(r),
        BinOp::Gt => l.igt(r),
        BinOp::Ge => l.ige(r),
        BinOp::Eq => l.eq(r),
        BinOp::Ne => l.ne(r),
        BinOp::And | BinOp::Star => l.and(r),
        BinOp::Or => l.or(r),
    }
}

/// Reads a field or array contents of `recv`: the value of the matching chunk, opening a
/// predicate of `recv` first when inference allows (§4.1).
fn read(
    v: &mut Verifier,
    state: State,
    target: Target,
    recv: &Term,
    e: &Expr,
    k: K<Term>,
) -> VResult {
    match ghost::locate(v, &state, &target, recv)? {
        Some(located) => {
            // The located states go on alone (changed in place, not copied).
            drop(state);
            // The state after an inferred `open` goes on: the opened chunks stay, so that
            // `list.items[i]` finds the array chunk that opening `list`'s predicate gave.
            let what = v.text(e.span);
            located.each(v, e.span, &what, |v, s, i| {
                let value = ghost::chunk_value(&s.heap, i);
                k(v, s, value)
            })
        }
        // No chunk on a path whose facts contradict each other: the path is dropped (Figure 6),
        // not failed.
        None if v.dead(&state) => Ok(()),
        None => Err(v
            .fail(
                &state,
                e.span,
                format!("no permission to read {}", v.text(e.span)),
            )
            .with_note(format!("the heap holds no chunk for `{}`", v.text(e.span)))),
    }
}

/// The terms of a call's receiver and arguments, receiver first.
pub fn eval_call_args(v: &mut Verifier, state: State, call: &Call, k: K<Vec<Term>>) -> VResult {
    eval(v, state, &call.recv, &mut |v, s, t0| {
        eval_list(v, s, &call.args, vec![t0], k)
    })
}

fn eval_list(
    v: &mut Verifier,
    state: State,
    es: &[Expr],
    acc: Vec<Term>,
    k: K<Vec<Term>>,
) -> VResult {
    match es.split_first() {
        None => k(v, state, acc),
        Some((e, rest)) => eval(v, state, e, &mut |v, s, t| {
            let mut acc = acc.clone();
            acc.push(t);
            eval_list(v, s, rest, std::mem::take(&mut acc), k)
        }),
    }
}

/// `C.p(snapshot, t0, …, tn)`: the receiver must be non-null and the precondition is consumed
/// (in a copy of the heap) to get the snapshot; with inference the `use` equation is added.
pub fn pure_call(
    v: &mut Verifier,
    mut state: State,
    call: &Call,
    targs: Vec<Term>,
    k: K<Term>,
) -> VResult {
    let program = v.program.clone();
    let found = program.pure(&call.class, &call.method);
    let pure = call::callee(v, &state, call, found, "a pure method")?;
    let callee = call::enter(v, &mut state, call, &pure.params, &targs)?;
    let ob = call::precondition(call);
    let closes_before = v.inferred_closes;
    consumer::consume(v, callee, &pure.pre, &ob, &mut |v, after, snap| {
        let mut args = vec![snap];
        args.extend(targs.iter().cloned());
        let t_call = Term::apply(pure_func(pure), &args);
        super::termination::check_call(v, pure, &after, call.span)?;
        let mut out = state.clone();
        out.pc = after.pc;
        if v.may_infer() {
            ghost::assume_definition(v, &mut out, pure, &targs, &t_call);
        }
        // The caller's heap again: the closes made for the precondition are not in it.
        super::termination::with_closes(v, closes_before, |v| k(v, out, t_call))
    })
}

/// The outcome of evaluating an operand under a guard (a branch of `&&`, `||` or `?:`).
enum Guarded {
    /// The guard is infeasible where the operand would fail, or no path reaches its value.
    Dead,
    /// Its value and the facts learned on the way (which hold under the guard).
    Value(Vec<Term>, Term),
    /// Evaluation splits the path (an inferred `open` of a predicate with a conditional body):
    /// no single term is its value, so the caller splits the path on the guard instead.
    Splits,
}

/// Evaluates `e` under the extra assumption `guard` without splitting the path.
fn eval_guarded(
    v: &mut Verifier,
    state: &State,
    guard: &Term,
    e: &Expr,
) -> Result<Guarded, Box<super::Failure>> {
    let mut s = state.clone();
    s.pc.assume(guard.clone());
    let base = s.pc.len();
    match collect(v, |v, k| eval(v, s, e, k)) {
        Ok(results) => Ok(match results.as_slice() {
            [] => Guarded::Dead,
            [(after, t)] => Guarded::Value(after.pc.since(base), t.clone()),
            _ => Guarded::Splits,
        }),
        Err(f) => {
            if v.feasible(state, guard) {
                Err(f)
            } else {
                Ok(Guarded::Dead)
            }
        }
    }
}

fn assume_guarded(state: &mut State, guard: &Term, learned: &[Term]) {
    if !learned.is_empty() {
        state
            .pc
            .assume(guard.implies(&Term::and_all(learned.iter())));
    }
}

/// `l && r` (and, with negated guard, `l || r`): `r` needs to be well-defined only where `l`
/// lets evaluation reach it.
fn short_circuit(
    v: &mut Verifier,
    state: State,
    guard: &Term,
    r: &Expr,
    k: K<Term>,
    join: impl Fn(&Term, &Term) -> Term,
) -> VResult {
    let mut out = state.clone();
    let tr = match eval_guarded(v, &state, guard, r)? {
        Guarded::Value(learned, tr) => {
            assume_guarded(&mut out, guard, &learned);
            tr
        }
        Guarded::Dead => Term::ff(),
        Guarded::Splits => {
            return branch(
                v,
                state,
                guard,
                k,
                |v, s, k| eval(v, s, r, &mut |v, s, tr| k(v, s, join(guard, &tr))),
                |v, s, k| k(v, s, join(guard, &Term::ff())),
            )
        }
    };
    k(v, out, join(guard, &tr))
}

/// `c ? a : b` as `ite(c, a, b)`; each branch evaluated under its condition.
fn conditional(
    v: &mut Verifier,
    state: State,
    tc: &Term,
    a: &Expr,
    b: &Expr,
    k: K<Term>,
) -> VResult {
    let ra = eval_guarded(v, &state, tc, a)?;
    let rb = eval_guarded(v, &state, &tc.not(), b)?;
    let mut out = state.clone();
    let value = match (ra, rb) {
        (Guarded::Splits, _) | (_, Guarded::Splits) => {
            return branch(
                v,
                state,
                tc,
                k,
                |v, s, k| eval(v, s, a, k),
                |v, s, k| eval(v, s, b, k),
            )
        }
        (Guarded::Value(la, ta), Guarded::Value(lb, tb)) => {
            assume_guarded(&mut out, tc, &la);
            assume_guarded(&mut out, &tc.not(), &lb);
            tc.ite(&ta, &tb)
        }
        (Guarded::Value(la, ta), Guarded::Dead) => {
            assume_guarded(&mut out, tc, &la);
            ta
        }
        (Guarded::Dead, Guarded::Value(lb, tb)) => {
            assume_guarded(&mut out, &tc.not(), &lb);
            tb
        }
        (Guarded::Dead, Guarded::Dead) => return Ok(()),
    };
    k(v, out, value)
}

impl super::Failure {
    pub fn with_note(mut self: Box<Self>, note: impl Into<String>) -> Box<Self> {
        self.notes.push(note.into());
        self
    }
}
