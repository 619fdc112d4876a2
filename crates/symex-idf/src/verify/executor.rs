//! `exec` (the paper's Figure 8): statements, each with the rest of the path as continuation.
use super::brancher::branch;
use super::call;
use super::evaluator::{eval, eval_call_args, field_key};
use super::ghost::{self, Target};
use super::state::Chunk;
use super::terms::{self, fresh, null, snap_sort};
use super::{
    collect, consumer, joiner, producer, Obligation, State, TraceStep, VResult, Verifier, K,
};
use crate::ir::{Call, Stmt, StmtKind};
use symex_expr::Term;

/// Executes a statement list; stops early once `return` has run.
///
/// The states after a statement are collected before the next statement runs, instead of
/// nesting the rest of the list in the statement's continuation: a straight-line body of n
/// statements then needs constant stack, not n nested continuations (Figure 11's client).
/// What the continuation would have seen — the steps on the path for `--trace` and the
/// verifier's nesting counters — is captured with each state and restored for the rest.
pub fn exec_seq(v: &mut Verifier, state: State, stmts: &[Stmt], k: K<()>) -> VResult {
    let depth = v.path.len();
    let counters = Counters::of(v);
    let r = exec_from(v, state, stmts, k);
    v.path.truncate(depth);
    counters.restore(v);
    r
}

fn exec_from(v: &mut Verifier, mut state: State, mut stmts: &[Stmt], k: K<()>) -> VResult {
    while let Some((s, rest)) = stmts.split_first() {
        if state.returned {
            break;
        }
        // The steps this statement adds to the path (its own, inferred ghost operations).
        let depth = v.path.len();
        let mut after = Vec::new();
        exec(v, state, s, &mut |v, st, ()| {
            after.push((st, v.path[depth..].to_vec(), Counters::of(v)));
            Ok(())
        })?;
        let mut resumed = after.into_iter();
        let Some(first) = resumed.next() else {
            return Ok(());
        };
        if resumed.len() > 0 {
            // The statement split the path: each state goes on with the rest of the list.
            for (st, steps, counters) in std::iter::once(first).chain(resumed) {
                resume(v, depth, steps, counters);
                exec_from(v, st, rest, k)?;
            }
            return Ok(());
        }
        let (st, steps, counters) = first;
        resume(v, depth, steps, counters);
        state = st;
        stmts = rest;
    }
    k(v, state, ())
}

/// Puts back the path and counters a statement's continuation saw.
fn resume(v: &mut Verifier, depth: usize, steps: Vec<TraceStep>, counters: Counters) {
    v.path.truncate(depth);
    v.path.extend(steps);
    counters.restore(v);
}

/// The verifier's nesting counters, as a continuation sees them.
#[derive(Clone, Copy)]
struct Counters {
    infer_level: usize,
    use_level: usize,
    viewing_old: usize,
    inferred_closes: u64,
}

impl Counters {
    fn of(v: &Verifier) -> Counters {
        Counters {
            infer_level: v.infer_level,
            use_level: v.use_level,
            viewing_old: v.viewing_old,
            inferred_closes: v.inferred_closes,
        }
    }

    fn restore(self, v: &mut Verifier) {
        v.infer_level = self.infer_level;
        v.use_level = self.use_level;
        v.viewing_old = self.viewing_old;
        v.inferred_closes = self.inferred_closes;
    }
}

/// Executes one statement, recording it on the path for `--trace`.
pub fn exec(v: &mut Verifier, state: State, s: &Stmt, k: K<()>) -> VResult {
    if let Some(f) = v.out_of_time(&state, s.span) {
        return Err(f);
    }
    if !v.config.trace {
        return exec_kind(v, state, s, k);
    }
    let depth = v.path.len();
    v.path.push(TraceStep {
        span: s.span,
        state: state.clone(),
        label: None,
    });
    let r = exec_kind(v, state, s, k);
    v.path.truncate(depth);
    r
}

fn exec_kind(v: &mut Verifier, state: State, s: &Stmt, k: K<()>) -> VResult {
    match &s.kind {
        StmtKind::Decl(x, sort) => {
            let mut st = state;
            st.set_var(x, terms::default_value(*sort));
            k(v, st, ())
        }
        StmtKind::Assign(x, e) => eval(v, state, e, &mut |v, mut st, t| {
            st.set_var(x, t);
            k(v, st, ())
        }),
        StmtKind::New(x, class) => {
            let program = v.program.clone();
            let mut st = state;
            let o = allocate(v, &mut st, "o");
            if let Some(c) = program.classes.get(class) {
                for f in &c.fields {
                    let chunk = Chunk::Field {
                        recv: o.clone(),
                        field: field_key(f),
                        value: terms::default_value(f.sort),
                    };
                    // Figure 6's separation facts: the new object is none of the receivers of
                    // chunks of the same field (allocated ones differ by allocation number).
                    for r in st.heap.receivers_like(&chunk, true) {
                        st.pc.assume(o.eq(&r).not());
                    }
                    st.heap.add(chunk, true);
                }
            }
            st.set_var(x, o);
            k(v, st, ())
        }
        StmtKind::NewArray(x, elem, len) => eval(v, state, len, &mut |v, mut st, n| {
            if !v.proves(&st, &Term::int(0).ile(&n)) {
                return Err(v.fail(
                    &st,
                    len.span,
                    format!("array length might be negative: {}", v.text(len.span)),
                ));
            }
            let a = allocate(v, &mut st, "a");
            st.pc.assume(terms::length(&a).eq(&n));
            st.heap.add(
                Chunk::Elems {
                    recv: a.clone(),
                    value: terms::fill(*elem),
                },
                true,
            );
            st.set_var(x, a);
            k(v, st, ())
        }),
        StmtKind::FieldAssign(obj, f, value) => eval(v, state, obj, &mut |v, st, t| {
            eval(v, st, value, &mut |v, st, tv| {
                let target = Target::Field(field_key(f));
                write(v, st, &target, &t, s, k, |_| tv.clone())
            })
        }),
        StmtKind::ArrayAssign(array, index, value, elem) => {
            eval(v, state, array, &mut |v, st, ta| {
                eval(v, st, index, &mut |v, st, ti| {
                    eval(v, st, value, &mut |v, st, tv| {
                        let in_bounds = Term::int(0).ile(&ti).and(&ti.ilt(&terms::length(&ta)));
                        if !v.proves(&st, &in_bounds) {
                            return Err(v.fail(
                                &st,
                                s.span,
                                format!(
                                    "array index might be out of bounds: {}",
                                    v.text(index.span)
                                ),
                            ));
                        }
                        write(v, st, &Target::Elems(*elem), &ta, s, k, |old| {
                            terms::array_update(old, &ti, &tv)
                        })
                    })
                })
            })
        }
        StmtKind::Call(lhs, call) => eval_call_args(v, state, call, &mut |v, st, targs| {
            call_mutator(v, st, call, targs, lhs.as_deref(), k)
        }),
        StmtKind::If(c, a, b) => eval(v, state, c, &mut |v, st, tc| {
            branch(
                v,
                st,
                &tc,
                k,
                |v, st, k| joiner::exec_body(v, st, a, k),
                |v, st, k| joiner::exec_body(v, st, b, k),
            )
        }),
        StmtKind::While {
            cond,
            invariant,
            body,
            modified,
        } => joiner::exec_while(v, state, cond, invariant, body, modified, s.span, k),
        StmtKind::Assert(phi) => {
            let ob = Obligation::new("assertion might not hold");
            let heap = state.heap.clone();
            consumer::consume(v, state, phi, &ob, &mut |v, mut st, _| {
                st.heap = heap.clone();
                k(v, st, ())
            })
        }
        StmtKind::Assume(e) => eval(v, state, e, &mut |v, mut st, t| {
            // An assumption that contradicts the path condition ends the path: nothing after
            // it can fail (Σ ⊢ false), though a chunk lookup would not notice.
            if !v.feasible(&st, &t) {
                return Ok(());
            }
            st.pc.assume(t);
            k(v, st, ())
        }),
        StmtKind::Open(call) => eval_call_args(v, state, call, &mut |v, st, targs| {
            let ob = Obligation::at_site(
                "cannot open: the predicate instance might not be held",
                call.span,
            );
            ghost::open(v, st, call, targs, &ob, k)
        }),
        StmtKind::Close(call) => eval_call_args(v, state, call, &mut |v, st, targs| {
            ghost::close(v, st, call, targs, k)
        }),
        StmtKind::Use(call) => eval_call_args(v, state, call, &mut |v, st, targs| {
            ghost::use_pure(v, st, call, targs, k)
        }),
        StmtKind::Join(phi) => Err(v.fail(
            &state,
            phi.span,
            "internal error: `join` reached outside the block rule of `joiner::exec_body`",
        )),
        StmtKind::Return(e) => eval(v, state, e, &mut |v, mut st, t| {
            st.set_var("result", t);
            st.returned = true;
            k(v, st, ())
        }),
    }
}

/// Updates the chunk for `recv.target` (opening a predicate of `recv` first when inference
/// allows): Figure 8's field update.
fn write(
    v: &mut Verifier,
    state: State,
    target: &Target,
    recv: &Term,
    s: &Stmt,
    k: K<()>,
    update: impl Fn(&Term) -> Term,
) -> VResult {
    let what = lhs_text(v, s);
    match ghost::locate(v, &state, target, recv)? {
        Some(located) => {
            // The located states go on alone (changed in place, not copied).
            drop(state);
            located.each(v, s.span, &what, |v, mut st, i| {
                let chunk = match st.heap.get(i).clone() {
                    Chunk::Field { recv, field, value } => Chunk::Field {
                        recv,
                        field,
                        value: update(&value),
                    },
                    Chunk::Elems { recv, value } => Chunk::Elems {
                        recv,
                        value: update(&value),
                    },
                    other => other,
                };
                st.heap.set(i, chunk);
                k(v, st, ())
            })
        }
        None if v.dead(&state) => Ok(()),
        None => Err(v
            .fail(
                &state,
                s.span,
                format!("no permission to write {}", lhs_text(v, s)),
            )
            .with_note(format!("the heap holds no chunk for `{what}`"))),
    }
}

/// A mutator call: the receiver must be non-null, the precondition is consumed, the
/// postcondition produced with a fresh snapshot (old heap: the heap before the call).
fn call_mutator(
    v: &mut Verifier,
    mut state: State,
    call: &Call,
    targs: Vec<Term>,
    lhs: Option<&str>,
    k: K<()>,
) -> VResult {
    let program = v.program.clone();
    let found = program.mutator(&call.class, &call.method);
    let m = call::callee(v, &state, call, found, "a mutator")?;
    let callee = call::enter(v, &mut state, call, &m.params, &targs)?;
    let ob = call::precondition(call);
    consumer::consume(v, callee, &m.pre, &ob, &mut |v, after_pre, _| {
        let mut post = after_pre;
        post.old = state.heap.clone();
        let result = m.ret.map(|s| fresh("result", terms::sort(s)));
        if let Some(r) = &result {
            post.set_var("result", r.clone());
        }
        // Collected first, so that a failure here is told apart from one further on.
        let produced = collect(v, |v, k2| {
            producer::produce(v, post, fresh("s", snap_sort()), &m.post, k2)
        })
        .map_err(|f| {
            let (line, col) = crate::diagnostics::line_col(&v.src, f.span.start);
            let part = v.text(f.span);
            let mut f = f.with_note(format!(
                "the failing part `{part}` is at line {line}, column {col}"
            ));
            f.message = format!(
                "postcondition of `{}` is not well-defined: {}",
                v.text(call.span),
                f.message
            );
            f.span = call.span;
            f
        })?;
        for (after_post, ()) in produced {
            let mut out = state.clone();
            out.heap = after_post.heap;
            out.pc = after_post.pc;
            if let (Some(x), Some(r)) = (lhs, &result) {
                out.set_var(x, r.clone());
            }
            k(v, out, ())?;
        }
        Ok(())
    })
}

/// The assigned location of an assignment statement, as written (`this.x`, `x`, `a[i]`).
fn lhs_text(v: &Verifier, s: &Stmt) -> String {
    let text = v.text(s.span);
    text.split(":=").next().unwrap_or(&text).trim().to_string()
}

/// A new object: fresh, non-null, with the next allocation number, which every reference that
/// was in the state before and is not an allocated object has not (Figure 8's `new`: the object
/// is fresh); allocated objects differ by their numbers.
fn allocate(v: &mut Verifier, state: &mut State, prefix: &str) -> Term {
    let o = fresh(prefix, terms::ref_sort());
    state.pc.assume(o.eq(&null()).not());
    let k = Term::int(v.next_oid);
    for t in std::mem::take(&mut state.undated) {
        state
            .pc
            .assume(t.eq(&null()).or(&terms::object_id(&t).ilt(&k)));
    }
    state.pc.assume(terms::object_id(&o).eq(&k));
    v.next_oid += 1;
    state.allocated.insert(o.id());
    o
}
