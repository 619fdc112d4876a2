//! Recursion through preconditions. Evaluating a pure call consumes the callee's precondition
//! (Figure 5), and a pure call inside that precondition is evaluated while consuming it: a
//! pure method whose precondition calls itself, directly or through other preconditions, sends
//! evaluation round that cycle for ever. Such programs are rejected with the call's position
//! (the paper's §3.6 orders calls in pure bodies only; preconditions must not recur at all).
use crate::diagnostics::Diagnostic;
use crate::ir::{Assertion, AssertionKind, Call, Expr, ExprKind, Key, Program, Span};
use std::collections::BTreeMap;

/// The pure calls an expression or assertion evaluates (`using` evaluates its call too).
fn calls_in_expr<'a>(e: &'a Expr, out: &mut Vec<&'a Call>) {
    match &e.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Var(..) => {}
        ExprKind::Field(x, _) | ExprKind::Length(x) | ExprKind::Unary(_, x) | ExprKind::Old(x) => {
            calls_in_expr(x, out)
        }
        ExprKind::Index(a, i, _) | ExprKind::Binary(_, a, i) => {
            calls_in_expr(a, out);
            calls_in_expr(i, out);
        }
        ExprKind::Cond(c, a, b) => {
            calls_in_expr(c, out);
            calls_in_expr(a, out);
            calls_in_expr(b, out);
        }
        ExprKind::PureCall(call) | ExprKind::Using(call, _) => {
            out.push(call);
            call_args(call, out);
            if let ExprKind::Using(_, body) = &e.kind {
                calls_in_expr(body, out);
            }
        }
        ExprKind::Opening(call, body) => {
            call_args(call, out);
            calls_in_expr(body, out);
        }
    }
}

fn call_args<'a>(call: &'a Call, out: &mut Vec<&'a Call>) {
    calls_in_expr(&call.recv, out);
    for a in &call.args {
        calls_in_expr(a, out);
    }
}

fn calls_in_assertion<'a>(a: &'a Assertion, out: &mut Vec<&'a Call>) {
    match &a.kind {
        AssertionKind::Pure(e) | AssertionKind::Acc(e, _) | AssertionKind::AccElems(e, _) => {
            calls_in_expr(e, out)
        }
        AssertionKind::Sep(x, y) => {
            calls_in_assertion(x, out);
            calls_in_assertion(y, out);
        }
        AssertionKind::Pred(call) => call_args(call, out),
        AssertionKind::Cond(c, x, y) => {
            calls_in_expr(c, out);
            calls_in_assertion(x, out);
            calls_in_assertion(y, out);
        }
        AssertionKind::Untouched(x) => calls_in_assertion(x, out),
    }
}

/// Rejects a cycle of pure methods each of whose preconditions calls the next.
pub fn check_precondition_recursion(program: &Program) -> Result<(), Diagnostic> {
    // The pure calls of each pure method's precondition, with their positions.
    let edges: BTreeMap<&Key, Vec<(Key, Span)>> = program
        .pures
        .iter()
        .map(|(key, p)| {
            let mut calls = Vec::new();
            calls_in_assertion(&p.pre, &mut calls);
            let targets = calls
                .into_iter()
                .map(|c| ((c.class.clone(), c.method.clone()), c.span))
                .filter(|(k, _)| program.pures.contains_key(k))
                .collect();
            (key, targets)
        })
        .collect();
    // Depth-first search in program order; `path` holds the calls from the start of the cycle.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Active,
        Done,
    }
    let mut marks: BTreeMap<Key, Mark> = BTreeMap::new();
    let mut path: Vec<(Key, Span)> = Vec::new();
    fn visit(
        key: &Key,
        edges: &BTreeMap<&Key, Vec<(Key, Span)>>,
        marks: &mut BTreeMap<Key, Mark>,
        path: &mut Vec<(Key, Span)>,
    ) -> Option<Vec<(Key, Span)>> {
        marks.insert(key.clone(), Mark::Active);
        for (target, span) in edges.get(key).into_iter().flatten() {
            path.push((key.clone(), *span));
            match marks.get(target) {
                Some(Mark::Active) => {
                    let start = path.iter().position(|(k, _)| k == target).unwrap_or(0);
                    return Some(path[start..].to_vec());
                }
                Some(Mark::Done) => {}
                None => {
                    if let Some(cycle) = visit(target, edges, marks, path) {
                        return Some(cycle);
                    }
                }
            }
            path.pop();
        }
        marks.insert(key.clone(), Mark::Done);
        None
    }
    for key in program
        .order
        .iter()
        .filter(|k| program.pures.contains_key(*k))
    {
        if marks.contains_key(key) {
            continue;
        }
        if let Some(cycle) = visit(key, &edges, &mut marks, &mut path) {
            let name = |k: &Key| format!("{}.{}", k.0, k.1);
            let through: Vec<String> = cycle.iter().map(|(k, _)| name(k)).collect();
            let (first, span) = &cycle[0];
            return Err(Diagnostic::error(
                format!(
                    "recursion through preconditions: the precondition of `{}` calls {} (a pure call evaluates its callee's precondition, so this never ends)",
                    name(first),
                    if cycle.len() == 1 {
                        "the method itself".to_string()
                    } else {
                        format!("back to itself through {}", through[1..].join(", "))
                    }
                ),
                *span,
            )
            .with_label("this call recurs"));
        }
    }
    Ok(())
}
