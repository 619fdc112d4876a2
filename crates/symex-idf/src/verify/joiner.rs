//! Where paths meet again: `join φ` (the paper's §6.1) and `while` loops with invariants
//! (an addition). Both cut the paths before them off at an assertion and verify what follows
//! once, from a state that satisfies the assertion.
use super::evaluator::eval;
use super::executor::exec_seq;
use super::state::Heap;
use super::terms::{fresh, snap_sort};
use super::{consumer, producer, Obligation, State, VResult, Verifier, K};
use crate::ir::{Assertion, Expr, Span, Stmt, StmtKind};

/// Executes a block (a method body, a branch, a loop body) that may contain `join φ;`: every path to the join must
/// satisfy φ (and ends there); the statements after it are verified once, from a state that
/// holds exactly φ, with every variable the paths before could have changed made fresh.
pub fn exec_body(v: &mut Verifier, state: State, stmts: &[Stmt], k: K<()>) -> VResult {
    let Some(j) = stmts
        .iter()
        .position(|s| matches!(s.kind, StmtKind::Join(_)))
    else {
        return exec_seq(v, state, stmts, k);
    };
    let StmtKind::Join(phi) = &stmts[j].kind else {
        unreachable!("position found a join")
    };
    let entry = state.clone();
    let ob = Obligation::new("join assertion might not hold");
    exec_seq(v, state, &stmts[..j], &mut |v, st, ()| {
        if st.returned {
            return k(v, st, ());
        }
        consumer::consume(v, st, phi, &ob, &mut |_, _, _| Ok(()))
    })?;
    let mut after = entry.clone();
    after.heap = Heap::default();
    let mut written = Vec::new();
    vars_written(&stmts[..j], &mut written);
    for x in written {
        let sort = match x.1 {
            Some(s) => super::terms::sort(s),
            None => match entry.var(&x.0) {
                Some(t) => t.sort(),
                None => continue,
            },
        };
        after.set_var(&x.0, fresh(&x.0, sort));
    }
    producer::produce(v, after, fresh("s", snap_sort()), phi, &mut |v, s, ()| {
        exec_body(v, s, &stmts[j + 1..], k)
    })
}

/// Variables declared (with their sort) or assigned in `stmts`.
fn vars_written(stmts: &[Stmt], out: &mut Vec<(String, Option<crate::ir::Sort>)>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Decl(x, sort) => out.push((x.clone(), Some(*sort))),
            StmtKind::Assign(x, _)
            | StmtKind::New(x, _)
            | StmtKind::NewArray(x, _, _)
            | StmtKind::Call(Some(x), _) => out.push((x.clone(), None)),
            StmtKind::If(_, a, b) => {
                vars_written(a, out);
                vars_written(b, out);
            }
            StmtKind::While { body, .. } => vars_written(body, out),
            _ => {}
        }
    }
}

/// `while (c) invariant I; { body }`: I must hold on entry (consumed: what it covers is handed
/// to the loop, the rest of the heap is the frame); the body must preserve it from any state
/// satisfying I and c; after the loop, the frame plus I and ¬c hold. Variables the body
/// assigns are fresh in both.
#[allow(clippy::too_many_arguments)]
pub fn exec_while(
    v: &mut Verifier,
    state: State,
    cond: &Expr,
    invariant: &Assertion,
    body: &[Stmt],
    modified: &[String],
    _span: Span,
    k: K<()>,
) -> VResult {
    let entry_ob = Obligation::new("loop invariant might not hold on entry");
    let kept_ob = Obligation::new("loop invariant might not be preserved");
    consumer::consume(v, state, invariant, &entry_ob, &mut |v, framed, _| {
        let mut havocked = framed.clone();
        for x in modified {
            if let Some(t) = framed.var(x) {
                havocked.set_var(x, fresh(x, t.sort()));
            }
        }
        let mut iteration = havocked.clone();
        iteration.heap = Heap::default();
        assume_invariant_and(v, iteration, invariant, cond, true, &mut |v, s, ()| {
            exec_body(v, s, body, &mut |v, end, ()| {
                if end.returned {
                    // `return` inside the loop: the method ends here, with the frame back.
                    return k(v, with_frame(end, &framed.heap), ());
                }
                consumer::consume(v, end, invariant, &kept_ob, &mut |_, _, _| Ok(()))
            })
        })?;
        assume_invariant_and(v, havocked, invariant, cond, false, k)
    })
}

/// `state` with the chunks of `frame` (what the loop did not hand to its iterations) added back.
fn with_frame(mut state: State, frame: &Heap) -> State {
    for c in frame.iter() {
        let allocated = state.allocated.contains(&c.recv().id());
        state.heap.add(c.clone(), allocated);
    }
    state
}

/// Produces the invariant (with a fresh snapshot) and assumes the loop condition, or its
/// negation when `holds` is false: the states a loop iteration, or the loop exit, starts from.
/// `k` runs only where that is feasible.
fn assume_invariant_and(
    v: &mut Verifier,
    state: State,
    invariant: &Assertion,
    cond: &Expr,
    holds: bool,
    k: K<()>,
) -> VResult {
    let snap = fresh("s", snap_sort());
    producer::produce(v, state, snap, invariant, &mut |v, s, ()| {
        eval(v, s, cond, &mut |v, mut s, tc| {
            let c = if holds { tc } else { tc.not() };
            if !v.feasible(&s, &c) {
                return Ok(());
            }
            s.pc.assume(c);
            k(v, s, ())
        })
    })
}
