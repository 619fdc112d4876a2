//! `consume` (the paper's Figure 7): check an assertion, remove the chunks it asserts from the
//! heap and return their snapshot (`fromT(v)` for a field, the chunk's snapshot for a
//! predicate, `combine` over `*`, `unit` for pure parts). Expressions are evaluated in the
//! heap the consumption started from; `h2` is what is left to consume from.
use super::brancher::branch;
use super::call::callee_store;
use super::evaluator::{eval, eval_call_args, field_key};
use super::ghost::{self, Target};
use super::heap;
use super::state::{Chunk, Heap};
use super::terms::{combine, from_value, unit};
use super::{collect, Obligation, State, VResult, Verifier, K};
use crate::ir::{Assertion, AssertionKind, Call};
use symex_expr::Term;

pub fn consume(
    v: &mut Verifier,
    state: State,
    phi: &Assertion,
    ob: &Obligation,
    k: K<Term>,
) -> VResult {
    let h2 = state.heap.clone();
    consume_rest(v, state, h2, phi, ob, &mut |v, mut s, (rest, snap)| {
        s.heap = rest;
        k(v, s, snap)
    })
}

fn failed(v: &Verifier, state: &State, phi: &Assertion, ob: &Obligation) -> Box<super::Failure> {
    ob.fail(v, state, phi.span)
}

/// The paper's `consume'`: `state.heap` is the evaluation heap H, `h2` the heap still to
/// consume from.
pub fn consume_rest(
    v: &mut Verifier,
    state: State,
    h2: Heap,
    phi: &Assertion,
    ob: &Obligation,
    k: K<(Heap, Term)>,
) -> VResult {
    match &phi.kind {
        AssertionKind::Pure(e) => eval(v, state, e, &mut |v, s, t| {
            if v.proves(&s, &t) {
                k(v, s, (h2.clone(), unit()))
            } else {
                let mut f = failed(v, &s, phi, ob);
                f.goal = Some(t);
                Err(f)
            }
        }),
        AssertionKind::Acc(e, f) => {
            let target = Target::Field(field_key(f));
            eval(v, state, e, &mut |v, s, t| {
                take(v, s, h2.clone(), &target, &t, phi, ob, k)
            })
        }
        AssertionKind::AccElems(e, elem) => eval(v, state, e, &mut |v, s, t| {
            take(v, s, h2.clone(), &Target::Elems(*elem), &t, phi, ob, k)
        }),
        AssertionKind::Sep(a, b) => {
            consume_rest(v, state, h2, a, ob, &mut |v, s, (rest, snap_a)| {
                consume_rest(v, s, rest, b, ob, &mut |v, s, (rest, snap_b)| {
                    k(v, s, (rest, join(&snap_a, &snap_b, a, b)))
                })
            })
        }
        AssertionKind::Pred(call) => eval_call_args(v, state, call, &mut |v, s, targs| {
            consume_pred(v, s, h2.clone(), call, &targs, ob, k)
        }),
        AssertionKind::Cond(c, a, b) => eval(v, state, c, &mut |v, s, tc| {
            let (ha, hb) = (h2.clone(), h2.clone());
            branch(
                v,
                s,
                &tc,
                k,
                |v, s, k| consume_rest(v, s, ha, a, ob, k),
                |v, s, k| consume_rest(v, s, hb, b, ob, k),
            )
        }),
        AssertionKind::Untouched(a) => {
            // Each way of consuming `a` (a conditional `a` splits the path) goes on under its
            // own path condition: the rest of the assertion must hold on every branch, not
            // only under the last branch's assumptions.
            let now = collect(v, |v, k| consume(v, state.clone(), a, ob, k))?;
            for (after_now, snap_now) in now {
                let then =
                    v.in_old(|v| collect(v, |v, k| consume(v, after_now.old_state(), a, ob, k)))?;
                for (after_then, snap_then) in then {
                    let mut s = state.clone();
                    s.pc = after_then.pc;
                    if !v.proves(&s, &super::terms::snap_eq(&snap_now, &snap_then)) {
                        return Err(failed(v, &s, phi, ob).with_note(
                            "the locations it covers might have changed since the method's entry",
                        ));
                    }
                    k(v, s, (h2.clone(), unit()))?;
                }
            }
            Ok(())
        }
    }
}

/// Removes the chunk for `recv.target` from `h2` (opening a predicate of `recv` first when
/// inference allows) and passes on its snapshot.
#[allow(clippy::too_many_arguments)]
fn take(
    v: &mut Verifier,
    state: State,
    h2: Heap,
    target: &Target,
    recv: &Term,
    phi: &Assertion,
    ob: &Obligation,
    k: K<(Heap, Term)>,
) -> VResult {
    let mut view = state.clone();
    view.heap = h2;
    // The receiver as written, for notes and the trace.
    let recv_text = match &phi.kind {
        AssertionKind::Acc(e, _) | AssertionKind::AccElems(e, _) => v.text(e.span),
        _ => super::pretty::term(recv),
    };
    let what = ghost::describe(target, &recv_text);
    match ghost::locate(v, &view, target, recv)? {
        Some(located) => {
            // The located states go on alone (their heaps changed in place, not copied).
            drop(view);
            located.each(v, phi.span, &what, |v, s, i| {
                let mut rest = s.heap;
                let value = ghost::chunk_value(&rest, i);
                rest.remove(i);
                let mut out = state.clone();
                out.pc = s.pc;
                k(v, out, (rest, from_value(&value)))
            })
        }
        None if v.dead(&view) => Ok(()),
        None => {
            Err(failed(v, &view, phi, ob)
                .with_note(format!("the heap holds no chunk for `{what}`")))
        }
    }
}

/// Consumes the predicate instance `call` with receiver and arguments `targs` from `h2`; when
/// no chunk matches and inference allows, closes it first (consuming its body from `h2`).
pub fn consume_pred(
    v: &mut Verifier,
    state: State,
    h2: Heap,
    call: &Call,
    targs: &[Term],
    ob: &Obligation,
    k: K<(Heap, Term)>,
) -> VResult {
    let key = ghost::pred_key(call);
    if let Some(i) = heap::find_pred(v, &state, &h2, &key, targs) {
        let mut rest = h2;
        let Chunk::Pred { snap, .. } = rest.remove(i) else {
            unreachable!("find_pred returns predicate chunks")
        };
        return k(v, state, (rest, snap));
    }
    let missing = |v: &Verifier, s: &State| {
        ob.fail(v, s, call.span).with_note(format!(
            "the heap holds no chunk for `{}`",
            v.text(call.span)
        ))
    };
    if v.dead(&state) {
        return Ok(());
    }
    let program = v.program.clone();
    let pred = match program.predicate(&call.class, &call.method) {
        Some(p) if v.may_infer() => p,
        _ => return Err(missing(v, &state)),
    };
    let mut body_state = state.clone();
    body_state.heap = h2.clone();
    body_state.store = callee_store(&pred.params, targs);
    let closing =
        Obligation::new("predicate body might not hold when closing `{}`").quoting(call.span);
    let closed = v.deeper(|v| {
        collect(v, |v, k2| {
            consume_rest(v, body_state, h2.clone(), &pred.body, &closing, k2)
        })
    });
    match closed {
        Ok(results) => {
            for (s, (rest, snap)) in results {
                let mut out = state.clone();
                out.pc = s.pc;
                // Counted for the rest of this path only.
                v.inferred_closes += 1;
                let label = format!("inferred: close {}", v.text(call.span));
                let shown = out.clone();
                let r = v.with_step(call.span, &shown, label, |v| k(v, out, (rest, snap)));
                v.inferred_closes -= 1;
                r?;
            }
            Ok(())
        }
        Err(inner) => {
            Err(missing(v, &state)
                .with_note(format!("inferring `close` failed: {}", inner.message)))
        }
    }
}

/// The snapshot of `a * b` from those of its sides: the inverse of `producer::split`.
pub fn join(snap_a: &Term, snap_b: &Term, a: &Assertion, b: &Assertion) -> Term {
    match (a.is_pure(), b.is_pure()) {
        (true, _) => snap_b.clone(),
        (false, true) => snap_a.clone(),
        (false, false) => combine(snap_a, snap_b),
    }
}
