//! The pure-method termination check of the paper's §3.6: at each pure call in a pure
//! method's body, either the callee comes earlier in the program text, or the call is inside
//! an `opening` expression, or some chunk of the heap is not consumed by the callee's
//! precondition (so the heap, or its derivation depth, shrinks).
//!
//! The paper's argument (the heap's size and derivation depth never grow along calls, so one
//! of them or the program position shrinks) assumes that consuming a callee's precondition
//! closes nothing: a pure body has no `close`. An inferred `close` (§4.1) makes the derivation
//! depth grow: inside `opening p() in f()` it can close `p()` again and hand `f` the very heap
//! it started from, and a call to an earlier method can do the same on a detour through a
//! later one. So a pure call made while an inferred `close` stands on the path — in the
//! call's precondition, in an enclosing `opening` (which closes a predicate that is not held
//! to open it again) or anywhere before it whose heap the call still sees — is not accepted:
//! [`Verifier::inferred_closes`] counts exactly the inferred closes whose result is in the
//! current heap.
//!
//! Such a call is still accepted when a field chunk is left after consuming its precondition.
//! Opening and closing keep the field locations underneath a heap (its *flattening*), and a
//! pure body only opens, closes and lends parts of its heap, so the callee's flattening is a
//! strict part of the one the method started from: that measure decreases whatever was
//! closed. The paper's condition (3) — *some* chunk is left — is not enough then: a predicate
//! instance left over may cover no location (`predicate e() { return true; }`) while inference
//! closes the rest back into the callee's precondition, and the calls go round forever.
use super::state::Chunk;
use super::{State, VResult, Verifier};
use crate::ir::{Pure, Span};

#[derive(Clone, Debug)]
pub struct Context {
    /// Program-text position of the pure method being checked.
    pub order: usize,
    pub name: String,
    /// How many `opening` expressions enclose the current point.
    pub opening: usize,
    /// [`Verifier::inferred_closes`] when the body's evaluation began.
    pub closes_at_entry: u64,
}

/// Checks a call of `callee`; `after` is the state after consuming the callee's precondition.
pub fn check_call(v: &mut Verifier, callee: &Pure, after: &State, span: Span) -> VResult {
    let Some(ctx) = &v.termination else {
        return Ok(());
    };
    let closed = v.inferred_closes > ctx.closes_at_entry;
    if !closed && (callee.order < ctx.order || ctx.opening > 0 || !after.heap.is_empty()) {
        return Ok(());
    }
    if closed && leaves_a_field(after) {
        return Ok(());
    }
    let msg = if closed {
        format!(
            "pure method `{}` might not terminate: the call `{}` is made in a heap built by closing a predicate (for its precondition or an enclosing `opening`), and its precondition leaves no field of that heap: the callee may get all the method started from (§3.6)",
            ctx.name,
            v.text(span)
        )
    } else {
        format!(
            "pure method `{}` might not terminate: the call `{}` is to a method not defined earlier, is not inside `opening`, and its precondition consumes the whole heap",
            ctx.name,
            v.text(span)
        )
    };
    Err(v.fail(after, span, msg))
}

/// Whether a field chunk is left in the heap after a call's precondition was consumed (an
/// array's elements may be none, and a predicate instance may cover no location).
fn leaves_a_field(after: &State) -> bool {
    after.heap.iter().any(|c| matches!(c, Chunk::Field { .. }))
}

/// Runs `f` inside one more `opening` expression.
pub fn inside_opening<T>(v: &mut Verifier, f: impl FnOnce(&mut Verifier) -> T) -> T {
    if let Some(ctx) = &mut v.termination {
        ctx.opening += 1;
    }
    let r = f(v);
    if let Some(ctx) = &mut v.termination {
        ctx.opening -= 1;
    }
    r
}

/// Runs `f` one `opening` level further out (the continuation of an `opening` expression).
pub fn outside_opening<T>(v: &mut Verifier, f: impl FnOnce(&mut Verifier) -> T) -> T {
    let inside = v.termination.as_ref().is_some_and(|c| c.opening > 0);
    if inside {
        if let Some(ctx) = &mut v.termination {
            ctx.opening -= 1;
        }
    }
    let r = f(v);
    if inside {
        if let Some(ctx) = &mut v.termination {
            ctx.opening += 1;
        }
    }
    r
}

/// Runs `f` with the count of inferred closes set back to `closes`: for a continuation whose
/// heap is again the one from before those closes (after a pure call's precondition was
/// consumed in a copy of the heap, after an `opening` expression).
pub fn with_closes<T>(v: &mut Verifier, closes: u64, f: impl FnOnce(&mut Verifier) -> T) -> T {
    let now = std::mem::replace(&mut v.inferred_closes, closes);
    let r = f(v);
    v.inferred_closes = now;
    r
}
