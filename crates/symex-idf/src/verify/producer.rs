//! `produce` (the paper's Figure 6): assume an assertion, adding the chunks it asserts to the
//! heap with values taken from the snapshot (split by `first`/`second` over `*`) and its pure
//! parts to the path condition.
//!
//! Expressions are evaluated in the whole current heap (the paper evaluates them in the part
//! produced so far; Definition 3 still makes every contract self-framing, since it produces
//! contracts from an empty heap).
use super::brancher::branch;
use super::evaluator::{eval, eval_call_args, field_key};
use super::ghost::pred_key;
use super::state::Chunk;
use super::terms::{self, first, null, second, to_value, Shape};
use super::{collect, consumer, Obligation, State, VResult, Verifier, K};
use crate::ir::{Assertion, AssertionKind};
use symex_expr::Term;

pub fn produce(v: &mut Verifier, state: State, snap: Term, phi: &Assertion, k: K<()>) -> VResult {
    match &phi.kind {
        AssertionKind::Pure(e) => eval(v, state, e, &mut |v, mut s, t| {
            // Figure 6 drops a path whose produced fact contradicts Σ; a literal `false` is
            // dropped here, other contradictions where the path would fail (`Verifier::dead`).
            if t.is_false() {
                return Ok(());
            }
            s.pc.assume(t);
            k(v, s, ())
        }),
        AssertionKind::Acc(e, f) => eval(v, state, e, &mut |v, mut s, t| {
            non_null(v, &s, &t, phi)?;
            let sort = terms::sort(f.sort);
            s.pc.assume(terms::shape_fact(&snap, Shape::Location(sort)));
            let value = to_value(&snap, sort);
            add_field_chunk(
                v,
                s,
                Chunk::Field {
                    recv: t,
                    field: field_key(f),
                    value,
                },
                k,
            )
        }),
        AssertionKind::AccElems(e, elem) => eval(v, state, e, &mut |v, mut s, t| {
            non_null(v, &s, &t, phi)?;
            let sort = terms::elems_value_sort(*elem);
            s.pc.assume(terms::shape_fact(&snap, Shape::Location(sort)));
            let value = to_value(&snap, sort);
            add_field_chunk(v, s, Chunk::Elems { recv: t, value }, k)
        }),
        AssertionKind::Sep(a, b) => {
            let (sa, sb) = split(&snap, a, b);
            let mut state = state;
            if !a.is_pure() && !b.is_pure() {
                state.pc.assume(terms::shape_fact(&snap, Shape::Pair));
            }
            produce(v, state, sa, a, &mut |v, s, ()| {
                produce(v, s, sb.clone(), b, k)
            })
        }
        AssertionKind::Pred(call) => eval_call_args(v, state, call, &mut |v, mut s, targs| {
            non_null(v, &s, &targs[0], phi)?;
            for t in &targs {
                s.note_reference(t);
            }
            s.heap.add(
                Chunk::Pred {
                    recv: targs[0].clone(),
                    pred: pred_key(call),
                    args: targs[1..].to_vec(),
                    snap: snap.clone(),
                },
                false,
            );
            k(v, s, ())
        }),
        AssertionKind::Cond(c, a, b) => eval(v, state, c, &mut |v, s, tc| {
            branch(
                v,
                s,
                &tc,
                k,
                |v, s, k| produce_branch(v, s, &snap, a, phi, k),
                |v, s, k| produce_branch(v, s, &snap, b, phi, k),
            )
        }),
        AssertionKind::Untouched(a) => {
            // Assumes that consuming `a` now and in the old heap gives the same snapshot.
            let ob = Obligation::new("`untouched` needs the permissions it names");
            let now = collect(v, |v, k| consumer::consume(v, state.clone(), a, &ob, k))?;
            for (after_now, snap_now) in now {
                let then = collect(v, |v, k| {
                    consumer::consume(v, after_now.old_state(), a, &ob, k)
                })?;
                for (after_then, snap_then) in then {
                    let mut s = state.clone();
                    s.pc = after_then.pc;
                    s.pc.assume(terms::snap_eq_fact(&snap_now, &snap_then));
                    k(v, s, ())?;
                }
            }
            Ok(())
        }
    }
}

/// One branch of a conditional assertion `phi`: a branch without footprint in an assertion
/// with one has the snapshot `unit` (what consuming it gives), the other the whole snapshot.
fn produce_branch(
    v: &mut Verifier,
    mut state: State,
    snap: &Term,
    branch: &Assertion,
    phi: &Assertion,
    k: K<()>,
) -> VResult {
    if branch.is_pure() && !phi.is_pure() {
        state.pc.assume(terms::shape_fact(snap, Shape::Unit));
    }
    produce(v, state, snap.clone(), branch, k)
}

fn non_null(v: &mut Verifier, state: &State, t: &Term, phi: &Assertion) -> VResult {
    if v.proves(state, &t.eq(&null()).not()) {
        Ok(())
    } else {
        Err(v.fail(
            state,
            phi.span,
            format!("receiver might be null: {}", v.text(phi.span)),
        ))
    }
}

/// Adds a field (or elements) chunk; the other chunks of the same field have other receivers
/// (separation), and a chunk for the very same receiver makes the path infeasible.
fn add_field_chunk(v: &mut Verifier, mut state: State, chunk: Chunk, k: K<()>) -> VResult {
    if state.heap.has_receiver_like(&chunk) {
        return Ok(());
    }
    let recv = chunk.recv().clone();
    state.note_reference(&recv);
    if let Chunk::Field { value, .. } = &chunk {
        state.note_reference(value);
    }
    let allocated = state.allocated.contains(&recv.id());
    for o in state.heap.receivers_like(&chunk, allocated) {
        state.pc.assume(recv.eq(&o).not());
    }
    state.heap.add(chunk, allocated);
    k(v, state, ())
}

/// The snapshots of the two sides of `a * b`: `first`/`second` of the snapshot, except that a
/// side without footprint (a pure assertion) takes no part of it, so that consuming what was
/// produced gives back the very same snapshot term (see `consumer::join`).
pub fn split(snap: &Term, a: &Assertion, b: &Assertion) -> (Term, Term) {
    match (a.is_pure(), b.is_pure()) {
        (true, _) => (terms::unit(), snap.clone()),
        (false, true) => (snap.clone(), terms::unit()),
        (false, false) => (first(snap), second(snap)),
    }
}
