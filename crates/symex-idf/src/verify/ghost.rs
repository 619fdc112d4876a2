//! Ghost operations (§3.3, Figure 8): `open` replaces a predicate chunk by its body, `close`
//! the reverse, `use` assumes that a pure call equals its body. And their inference (§4.1):
//! a missing field chunk makes the verifier open a predicate of the field's receiver, a
//! missing predicate chunk makes it close the predicate, and every evaluated pure call adds
//! its `use` equation — each bounded by `Config::infer_depth`.
use super::call::{self, callee_store};
use super::evaluator::{eval, pure_call};
use super::state::{Chunk, Heap};
use super::{collect, consumer, heap, producer, Failure, Obligation, State, VResult, Verifier, K};
use crate::ir::{Call, Predicate, Pure, Span};
use std::sync::Arc;
use symex_expr::Term;

/// What a field access or `acc` looks for.
#[derive(Clone, Debug)]
pub enum Target {
    /// `Class.field`.
    Field(Arc<str>),
    /// The elements of an array, with the element sort (arrays of different element types
    /// are different chunk families).
    Elems(crate::ir::Sort),
}

/// `recv.f` or `recv.elems`, with the receiver as written in the source.
pub fn describe(target: &Target, recv: &str) -> String {
    let r = recv;
    match target {
        Target::Field(f) => format!("{r}.{}", f.rsplit('.').next().unwrap_or(f)),
        Target::Elems(_) => format!("{r}.elems"),
    }
}

fn find(v: &mut Verifier, state: &State, target: &Target, recv: &Term) -> Option<usize> {
    match target {
        Target::Field(f) => heap::find_field(v, state, &state.heap, recv, f),
        Target::Elems(elem) => heap::find_elems(v, state, &state.heap, recv, *elem),
    }
}

pub fn chunk_value(h: &Heap, i: usize) -> Term {
    match h.get(i) {
        Chunk::Field { value, .. } | Chunk::Elems { value, .. } => value.clone(),
        Chunk::Pred { snap, .. } => snap.clone(),
    }
}

/// The chunk for `recv.target` in the state's heap, as `(state, index)` pairs: one pair when
/// the chunk is there; when it is not and inference allows, the states after opening a
/// predicate of `recv` that provides it (one per branch of the predicate's body; none when
/// every branch is infeasible). `None` when no chunk can be found.
pub fn locate(
    v: &mut Verifier,
    state: &State,
    target: &Target,
    recv: &Term,
) -> Result<Option<Located>, Box<Failure>> {
    if let Some(i) = find(v, state, target, recv) {
        return Ok(Some(Located {
            found: vec![(state.clone(), i)],
            opened: false,
        }));
    }
    if !v.may_infer() {
        return Ok(None);
    }
    for idx in heap::preds_of(v, state, &state.heap, recv) {
        let opened = v.deeper(|v| collect(v, |v, k| open_chunk(v, state.clone(), idx, k)));
        let Ok(states) = opened else { continue };
        let mut found = Vec::new();
        let mut complete = true;
        for (s, ()) in states {
            match v.deeper(|v| locate(v, &s, target, recv))? {
                Some(inner) => found.extend(inner.found),
                None => {
                    complete = false;
                    break;
                }
            }
        }
        if complete {
            return Ok(Some(Located {
                found,
                opened: true,
            }));
        }
    }
    Ok(None)
}

/// What [`locate`] found: the states with the chunk's index, and whether predicates were
/// opened by inference to get there (for `--trace`).
pub struct Located {
    pub found: Vec<(State, usize)>,
    pub opened: bool,
}

impl Located {
    /// Runs `k` on each state, recording an inferred `open` on the path when there was one.
    pub fn each(
        self,
        v: &mut Verifier,
        span: Span,
        what: &str,
        mut k: impl FnMut(&mut Verifier, State, usize) -> VResult,
    ) -> VResult {
        for (s, i) in self.found {
            if self.opened {
                let label = format!("inferred: open a predicate of `{what}`'s receiver");
                let shown = s.clone();
                v.with_step(span, &shown, label, |v| k(v, s, i))?;
            } else {
                k(v, s, i)?;
            }
        }
        Ok(())
    }
}

/// Opens the predicate chunk at `idx`: removes it and produces the predicate's body with the
/// chunk's snapshot.
pub fn open_chunk(v: &mut Verifier, state: State, idx: usize, k: K<()>) -> VResult {
    let Chunk::Pred {
        recv,
        pred,
        args,
        snap,
    } = state.heap.get(idx).clone()
    else {
        // Never silently drop a path: say what went wrong.
        return Err(v.fail(
            &state,
            Span::default(),
            "internal error: opening a chunk that is not a predicate",
        ));
    };
    let program = v.program.clone();
    let (class, name) = pred.split_once('.').unwrap_or(("", &pred));
    let Some(p) = program.predicate(class, name) else {
        return Err(v.fail(
            &state,
            Span::default(),
            format!("internal error: unknown predicate `{pred}`"),
        ));
    };
    // Changed in place: the heap is not shared with a state kept for later.
    let mut s = state;
    s.heap.remove(idx);
    let mut targs = vec![recv];
    targs.extend(args);
    produce_body(v, s, p, &targs, snap, k)
}

/// Produces the body of predicate `p` for `targs` with the snapshot `snap`, in the predicate's
/// store; the continuation is back in the caller's store.
fn produce_body(
    v: &mut Verifier,
    mut state: State,
    p: &Predicate,
    targs: &[Term],
    snap: Term,
    k: K<()>,
) -> VResult {
    let caller_store = std::mem::replace(&mut state.store, callee_store(&p.params, targs));
    producer::produce(v, state, snap, &p.body, &mut |v, mut after, ()| {
        after.store = caller_store.clone();
        k(v, after, ())
    })
}

pub fn pred_key(call: &Call) -> Arc<str> {
    call.key.clone()
}

/// `open e0.q(e1, …, en)` with the receiver and arguments evaluated: consume the predicate,
/// produce its body with the predicate's snapshot.
pub fn open(
    v: &mut Verifier,
    state: State,
    call: &Call,
    targs: Vec<Term>,
    ob: &Obligation,
    k: K<()>,
) -> VResult {
    let program = v.program.clone();
    let found = program.predicate(&call.class, &call.method);
    let p = call::callee(v, &state, call, found, "a predicate")?;
    let h = state.heap.clone();
    consumer::consume_pred(
        v,
        state,
        h,
        call,
        &targs,
        ob,
        &mut |v, mut s, (rest, snap)| {
            s.heap = rest;
            produce_body(v, s, p, &targs, snap, k)
        },
    )
}

/// `close e0.q(e1, …, en)`: consume the body, add the predicate chunk with the body's snapshot.
pub fn close(
    v: &mut Verifier,
    mut state: State,
    call: &Call,
    targs: Vec<Term>,
    k: K<()>,
) -> VResult {
    let program = v.program.clone();
    let found = program.predicate(&call.class, &call.method);
    let p = call::callee(v, &state, call, found, "a predicate")?;
    let s = call::enter(v, &mut state, call, &p.params, &targs)?;
    // Only the caller's store is wanted back: the rest of its state is dropped here, so that
    // the body's consumption changes the heap in place.
    let caller_store = std::mem::take(&mut state.store);
    drop(state);
    let ob = Obligation::at_site("predicate body might not hold at `close {}`", call.span)
        .quoting(call.span);
    consumer::consume(v, s, &p.body, &ob, &mut |v, mut after, snap| {
        after.store = caller_store.clone();
        after.heap.add(
            Chunk::Pred {
                recv: targs[0].clone(),
                pred: pred_key(call),
                args: targs[1..].to_vec(),
                snap,
            },
            false,
        );
        k(v, after, ())
    })
}

/// `use e0.p(e1, …, en)`: evaluate the call and the body, assume they are equal. The body is
/// evaluated one `use` level deeper; beyond [`super::Config::use_depth`] levels (a body that
/// uses itself, directly or through other methods) the `use` fails at the call.
pub fn use_pure(
    v: &mut Verifier,
    state: State,
    call: &Call,
    targs: Vec<Term>,
    k: K<()>,
) -> VResult {
    let program = v.program.clone();
    let found = program.pure(&call.class, &call.method);
    let pure = call::callee(v, &state, call, found, "a pure method")?;
    if v.use_level >= v.config.use_depth {
        // Reported at the outermost `use`, the one the member wrote or inferred.
        let site = v.use_site.unwrap_or(call.span);
        let (line, col) = crate::diagnostics::line_col(&v.src, call.span.start);
        return Err(v
            .fail(
                &state,
                site,
                format!(
                    "`use` of `{}` unfolds pure-method bodies more than {} levels deep: the body of `{}` uses itself, directly or through other pure methods, contracts or predicate bodies",
                    v.text(site),
                    v.config.use_depth,
                    call.method
                ),
            )
            .with_note(format!(
                "the innermost `use` is `{}` at line {line}, column {col}",
                v.text(call.span)
            )));
    }
    pure_call(v, state, call, targs.clone(), &mut |v, s, t_call| {
        let caller_store = s.store.clone();
        let mut body_state = s.clone();
        body_state.store = callee_store(&pure.params, &targs);
        if v.use_level == 0 {
            v.use_site = Some(call.span);
        }
        v.use_level += 1;
        let r = eval(v, body_state, &pure.body, &mut |v, mut after, t_body| {
            after.store = caller_store.clone();
            after.heap = s.heap.clone();
            after.pc.assume(t_call.eq(&t_body));
            // The rest of the path is outside the body.
            v.use_level -= 1;
            let r = k(v, after, ());
            v.use_level += 1;
            r
        });
        v.use_level -= 1;
        r
    })
}

/// The inferred `use` (§4.1): evaluates the body of `pure` in the current heap, one level
/// deeper, and assumes `t_call` equals it. Nothing is assumed when the body cannot be
/// evaluated here (e.g. the depth bound is reached).
pub fn assume_definition(
    v: &mut Verifier,
    state: &mut State,
    pure: &Pure,
    targs: &[Term],
    t_call: &Term,
) {
    let mut body_state = state.clone();
    body_state.store = callee_store(&pure.params, targs);
    let saved_termination = v.termination.take();
    let results = v.deeper(|v| collect(v, |v, k| eval(v, body_state, &pure.body, k)));
    v.termination = saved_termination;
    if let Ok(mut results) = results {
        if let (Some((after, t_body)), true) = (results.pop(), results.is_empty()) {
            // Moved out, so that the equation extends it in place.
            state.pc = after.pc;
            state.pc.assume(t_call.eq(&t_body));
        }
    }
}
