//! Splitting a path on a condition: each side is explored only when the path condition does
//! not rule it out (Figure 8's `if`, the conditional assertions of Figures 6 and 7).
use super::{State, VResult, Verifier, K};
use symex_expr::Term;

/// Runs `then` on `σ ∪ {cond}` and `els` on `σ ∪ {¬cond}`, each only if feasible, both with
/// the same continuation `k`.
pub fn branch<T>(
    v: &mut Verifier,
    state: State,
    cond: &Term,
    k: K<T>,
    then: impl FnOnce(&mut Verifier, State, K<T>) -> VResult,
    els: impl FnOnce(&mut Verifier, State, K<T>) -> VResult,
) -> VResult {
    let (may_then, may_else) = match cond.as_bool() {
        Some(b) => (b, !b),
        None => (v.feasible(&state, cond), v.feasible(&state, &cond.not())),
    };
    if may_then {
        let mut s = state.clone();
        s.pc.assume(cond.clone());
        then(v, s, k)?;
    }
    if may_else {
        let mut s = state;
        s.pc.assume(cond.not());
        els(v, s, k)?;
    }
    Ok(())
}
