//! What every call shares — a mutator call (Figure 8), a pure call (Figure 5) and the ghost
//! operations on a predicate instance (§3.3): finding the callee, the non-null receiver and the
//! callee's store `[this ↦ t0, x1 ↦ t1, …]` its contract is consumed in.
use super::state::Map;
use super::terms::null;
use super::{Failure, Obligation, State, Verifier};
use crate::ir::{Call, Sort};
use std::sync::Arc;
use symex_expr::Term;

/// `[this ↦ t0, x1 ↦ t1, …]`: the store a callee's contract or body is evaluated in.
pub fn callee_store(params: &[(String, Sort)], targs: &[Term]) -> Map<Arc<str>, Term> {
    let mut store = Map::default();
    store.insert(Arc::from("this"), targs[0].clone());
    for ((x, _), t) in params.iter().zip(&targs[1..]) {
        store.insert(Arc::from(x.as_str()), t.clone());
    }
    store
}

/// The member `call` names (`found`, looked up by the caller), or a failure at the call saying
/// that it is not `what` ("a mutator", "a pure method", "a predicate").
pub fn callee<'p, T>(
    v: &Verifier,
    state: &State,
    call: &Call,
    found: Option<&'p T>,
    what: &str,
) -> Result<&'p T, Box<Failure>> {
    found.ok_or_else(|| v.fail(state, call.span, format!("`{}` is not {what}", call.method)))
}

/// The state a callee's precondition (or, for `close`, a predicate's body) is consumed in: the
/// caller's heap and path condition with the callee's store. The receiver `targs[0]` must be
/// provably non-null first.
///
/// The path condition is moved, not shared: the caller's state is kept for what the call
/// leaves unchanged (its store, the heap before the call), and every rule after a call goes
/// on with the callee's path condition, which is then extended in place.
pub fn enter(
    v: &mut Verifier,
    state: &mut State,
    call: &Call,
    params: &[(String, Sort)],
    targs: &[Term],
) -> Result<State, Box<Failure>> {
    if !v.proves(state, &targs[0].eq(&null()).not()) {
        return Err(v.fail(
            state,
            call.span,
            format!("receiver of `{}` might be null", v.text(call.span)),
        ));
    }
    let pc = std::mem::take(&mut state.pc);
    Ok(State {
        store: callee_store(params, targs),
        pc,
        ..state.clone()
    })
}

/// The obligation of a callee's precondition, reported at the call.
pub fn precondition(call: &Call) -> Obligation {
    Obligation::at_site("precondition of `{}` might not hold", call.span).quoting(call.span)
}
