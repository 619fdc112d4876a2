//! Validity (the paper's Definitions 3 to 7): each mutator's contract is well-defined and its
//! body satisfies it, each predicate and pure method is well-defined (and pure methods
//! terminate, §3.6), and `main` runs from the empty state.
use super::evaluator::eval;
use super::ghost;
use super::joiner::exec_body;
use super::state::{Chunk, Heap};
use super::termination::Context;
use super::terms::{self, fresh, null, ref_sort, snap_sort};
use super::{consumer, producer, Failure, Obligation, State, Verifier};
use crate::ir::{Mutator, Predicate, Pure, Sort, Span};

#[derive(Clone, Debug)]
pub enum Status {
    Verified,
    Failed(Box<Failure>),
}

#[derive(Clone, Debug)]
pub struct MemberResult {
    /// `Class.member` (`Class.Class` for a constructor) or `main`.
    pub name: String,
    pub span: Span,
    pub status: Status,
}

/// `[this ↦ fresh, x1 ↦ fresh, …]` with `this ≠ null`.
fn entry_state(params: &[(String, Sort)]) -> State {
    let mut s = State::default();
    let this = fresh("this", ref_sort());
    s.pc.assume(this.eq(&null()).not());
    s.set_var("this", this);
    for (x, sort) in params {
        s.set_var(x, fresh(x, terms::sort(*sort)));
    }
    s
}

fn status(r: super::VResult) -> Status {
    match r {
        Ok(()) => Status::Verified,
        Err(f) => Status::Failed(f),
    }
}

/// Definition 3.
pub fn mutator(v: &mut Verifier, m: &Mutator) -> Status {
    let s0 = entry_state(&m.params);
    let well_defined = producer::produce(
        v,
        s0.clone(),
        fresh("s", snap_sort()),
        &m.pre,
        &mut |v, s, ()| {
            let mut post = s.clone();
            post.old = s.heap.clone();
            post.heap = Heap::default();
            if let Some(ret) = m.ret {
                post.set_var("result", fresh("result", terms::sort(ret)));
            }
            producer::produce(
                v,
                post,
                fresh("s", snap_sort()),
                &m.post,
                &mut |_, _, ()| Ok(()),
            )
        },
    );
    if let Err(mut f) = well_defined {
        f.message = format!("contract not well-defined: {}", f.message);
        return Status::Failed(f);
    }
    let ob = Obligation::new("postcondition might not hold");
    let mut entered = 0;
    let r = producer::produce(v, s0, fresh("s", snap_sort()), &m.pre, &mut |v, s, ()| {
        if v.dead(&s) {
            return Ok(());
        }
        entered += 1;
        let mut st = s;
        st.old = st.heap.clone();
        unfold_contract(v, st, &m.class, &mut |v, st, ()| {
            exec_body(v, st, &m.body, &mut |v, end, ()| {
                if m.ret.is_some() && !end.returned {
                    if v.dead(&end) {
                        return Ok(());
                    }
                    return Err(v.fail(
                        &end,
                        m.span,
                        format!("`{}` might end without `return`", m.name),
                    ));
                }
                consumer::consume(v, end, &m.post, &ob, &mut |v, _, _| {
                    v.paths += 1;
                    Ok(())
                })
            })
        })
    });
    if r.is_ok() && entered == 0 {
        warn_vacuous(v, &m.class, &m.name, &m.pre);
    }
    status(r)
}

/// A member whose precondition no state satisfies verifies vacuously: its body is never
/// checked, and every caller must prove `false` to call it. Often a typo (`x > 0 * y > 0`).
fn warn_vacuous(v: &mut Verifier, class: &str, name: &str, pre: &crate::ir::Assertion) {
    v.warnings.push(
        crate::Diagnostic::error(
            format!("the precondition of `{class}.{name}` is unsatisfiable: the member verifies vacuously"),
            pre.span,
        )
        .with_label("no state satisfies this")
        .with_note("its body is never checked, and a call must prove `false` first"),
    );
}

/// The §4.1 unfolding of contracts: with inference, the instances of the current class's
/// predicates that the precondition produced are opened (one level) before the body runs.
/// (Pure methods are unfolded by the inferred `use` equation at each evaluation; a missing
/// predicate, e.g. for the postcondition, is closed again on demand.)
fn unfold_contract(v: &mut Verifier, state: State, class: &str, k: super::K<()>) -> super::VResult {
    if !v.config.infer {
        return k(v, state, ());
    }
    let prefix = format!("{class}.");
    let own: Vec<usize> = state
        .heap
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c, Chunk::Pred { pred, .. } if pred.starts_with(&prefix)))
        .map(|(i, _)| i)
        .collect();
    open_all(v, state, &own, k)
}

/// Opens the predicate chunks at `indices` (ascending), the highest first so that the others
/// keep their positions.
fn open_all(v: &mut Verifier, state: State, indices: &[usize], k: super::K<()>) -> super::VResult {
    match indices.split_last() {
        None => k(v, state, ()),
        Some((&i, rest)) => ghost::open_chunk(v, state, i, &mut |v, s, ()| open_all(v, s, rest, k)),
    }
}

/// Definition 4.
pub fn predicate(v: &mut Verifier, p: &Predicate) -> Status {
    let s0 = entry_state(&p.params);
    let r = producer::produce(v, s0, fresh("s", snap_sort()), &p.body, &mut |_, _, ()| {
        Ok(())
    });
    status(r.map_err(|mut f| {
        f.message = format!("predicate body not well-defined: {}", f.message);
        f
    }))
}

/// Definition 5 and the termination check of §3.6.
pub fn pure(v: &mut Verifier, p: &Pure) -> Status {
    let s0 = entry_state(&p.params);
    let mut entered = 0;
    let r = producer::produce(v, s0, fresh("s", snap_sort()), &p.pre, &mut |v, s, ()| {
        if v.dead(&s) {
            return Ok(());
        }
        entered += 1;
        v.termination = Some(Context {
            order: p.order,
            name: format!("{}.{}", p.class, p.name),
            opening: 0,
            closes_at_entry: v.inferred_closes,
        });
        let r = eval(v, s, &p.body, &mut |_, _, _| Ok(()));
        v.termination = None;
        r
    });
    if r.is_ok() && entered == 0 {
        warn_vacuous(v, &p.class, &p.name, &p.pre);
    }
    status(r.map_err(|mut f| {
        if !f.message.contains("might not terminate") {
            f.message = format!("pure method not well-defined: {}", f.message);
        }
        f
    }))
}

/// Definition 6.
pub fn main(v: &mut Verifier, body: &[crate::ir::Stmt]) -> Status {
    status(exec_body(v, State::default(), body, &mut |v, end, ()| {
        v.paths += 1;
        if !v.config.free_at_end {
            // The states of the path are dropped as the continuations return: what they
            // share with this one is then not freed.
            std::mem::forget(end);
        }
        Ok(())
    }))
}

/// Definition 7: every member and `main`, in program order.
pub fn program(v: &mut Verifier) -> Vec<MemberResult> {
    let program = v.program.clone();
    let mut out = Vec::new();
    for key in &program.order {
        v.prover.reset_unknown();
        v.path.clear();
        let (class, name) = key;
        let (display, span, st) = if let Some(m) = program.mutators.get(key) {
            let shown = if m.is_constructor {
                class.clone()
            } else {
                name.clone()
            };
            (format!("{class}.{shown}"), m.span, mutator(v, m))
        } else if let Some(p) = program.pures.get(key) {
            (format!("{class}.{name}"), p.span, pure(v, p))
        } else if let Some(p) = program.predicates.get(key) {
            (format!("{class}.{name}"), p.span, predicate(v, p))
        } else {
            continue;
        };
        out.push(MemberResult {
            name: display,
            span,
            status: st,
        });
    }
    if let Some((body, span)) = &program.main {
        v.prover.reset_unknown();
        v.path.clear();
        out.push(MemberResult {
            name: "main".into(),
            span: *span,
            status: main(v, body),
        });
    }
    out
}
