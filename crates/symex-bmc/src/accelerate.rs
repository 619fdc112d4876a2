//! Loop acceleration for deep counterexamples (Kroening, Lewis, Weissenbacher, "Under-approximating
//! loops in C programs for fast counterexample detection", CAV 2013; CBMC's `goto-instrument
//! --accelerate`): besides one iteration, a state at the head of a loop of the entry function may take
//! `n ≥ 1` iterations of one path through the loop body at once, `n` a fresh symbol. A bug behind 2^27
//! iterations is then one accelerated step and a loop exit deep, within a small unwinding bound.
//!
//! A path is accelerated only when its closed form is exact (the accelerated state is one the program
//! reaches), so that the accelerated transition under-approximates the loop:
//!
//! * each variable the path writes (a scalar local stored through its own address, a register carried
//!   around the loop by a phi) changes by a constant `c` per iteration, so after `k` iterations it is
//!   `x₀ + c·k` in bit-vector arithmetic (wrap-around included); or by another such variable `y` plus
//!   a constant `e` (`sn += i`), so after `k` iterations it is `x₀ + k·(y₀ + e) + c_y·k(k−1)/2`, the
//!   sum of an arithmetic progression, exact modulo 2^w (`k(k−1)` is computed in 64 bits, where it
//!   cannot wrap, and halved there); or it is reset to the same value in every iteration, a term of
//!   values the loop does not write (`y = 0` before an inner loop), which it then has after `k ≥ 1`
//!   iterations. The path's condition may only read the first kind;
//! * the loop may hold inner loops that hold no loops themselves: the probe iteration unwinds them up
//!   to [`INNER_BOUND`] times, and each path through them that returns to the head (a fixed number of
//!   inner iterations, e.g. `for (y = 0; y < 10; y++)`) is a path of the outer loop like any other;
//! * the path reads no input and writes nothing else (memory, frame and standard input are checked as
//!   k-induction checks its havoc);
//! * its condition is a conjunction of comparisons `<`, `≤` (signed or unsigned, either polarity) and
//!   equalities between such variables and values the loop does not change. Over `k`, each such
//!   comparison holds on an interval as long as no variable wraps around (in either signedness) between
//!   the first and the last iteration; so the condition is asked at iterations `0` and `n−1` only, with
//!   those no-wrap conditions, and then holds at every iteration between (`x != B` is not an interval and
//!   is refused).
//!
//! The states of an accelerated transition count as one iteration for the unwinding bound. Only a FALSE
//! is ever taken from a run with accelerated states ([`crate::check`] runs it beside the plain one), and
//! that FALSE is the counterexample the concrete interpreter replayed, as every FALSE.

use crate::guarded::{Guarded, Shared};
use crate::induction::{same_frame_and_memory, scoped, written};
use crate::loops::Loops;
use crate::unwind::{Capture, Options, Unwinder};
use std::cell::RefCell;
use std::rc::Rc;
use symex_engine::domain::Domain;
use symex_engine::{Program, State};
use symex_explore::symbolic::{SymByte, SymVal};
use symex_expr::{Op, Sort, Term, TermMap};

/// Most paths through a loop body one probe accelerates (each becomes a state).
const MAX_PATHS: usize = 8;

/// Width of the fresh iteration count `n`.
const N_WIDTH: u32 = 32;

/// Prefix of the havocked values of the probe iteration.
const HAVOC_PREFIX: &str = "bmc_accel_h";

/// Iterations of an inner loop the probe iteration unwinds (per entry): an inner loop with a fixed
/// trip count up to this many is summarised by the paths through it.
pub const INNER_BOUND: u32 = 64;

/// A variable the loop carries from one iteration to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Var {
    /// A scalar object (a local stored through its own address), read as one word.
    Object(u32),
    /// A register assigned by a phi move on a back edge.
    Reg(u32),
}

/// How one iteration of a path changes a variable (`x` its havocked value at the head).
#[derive(Clone, Debug)]
enum Step {
    /// `x + c` (`c` in the variable's width).
    Linear(u128),
    /// `x + y + e`, `y` the havocked value of a variable whose step is linear (its index in the path's
    /// steps).
    Progression { of: usize, e: u128 },
    /// A value that reads no havocked value: the same at the end of every iteration.
    Reset(Term),
}

/// One path through the loop body: its condition over the havocked values and each variable's step.
struct Path {
    cond: Term,
    /// (variable, havocked value, step).
    steps: Vec<(Var, Term, Step)>,
    /// The objects of locals declared in the body: dead after an iteration.
    declared: Vec<u32>,
}

/// The states `n ≥ 1` iterations of one path of loop `index` of the entry function (`func`) take `st`
/// to, one per path whose closed form is exact; empty when the loop is not accelerable.
pub(crate) fn accelerated(
    prog: &Program,
    opts: &Options,
    shared: &Rc<RefCell<Shared>>,
    st: &State<Guarded>,
    func: u32,
    index: usize,
) -> Vec<State<Guarded>> {
    match paths(prog, opts, shared, st, func, index) {
        Some(paths) => paths.iter().filter_map(|p| apply(shared, st, p)).collect(),
        None => Vec::new(),
    }
}

/// The accelerable paths of the loop from `st`: one iteration from `st` with the loop's variables
/// havocked, each path back to the head kept apart.
fn paths(
    prog: &Program,
    opts: &Options,
    shared: &Rc<RefCell<Shared>>,
    st: &State<Guarded>,
    func: u32,
    index: usize,
) -> Option<Vec<Path>> {
    let body = prog.module().functions[func as usize].body.as_ref()?;
    let ls = Loops::of(body);
    let lp = &ls.loops[index];
    let inner = inner_loops(&ls, index)?;
    let (regs, objs) = written(prog, body, &lp.body, st).ok()?;
    let carried: Vec<u32> = body
        .blocks
        .iter()
        .enumerate()
        .filter(|(b, _)| lp.body[*b])
        .flat_map(|(_, blk)| blk.term.edges())
        .filter(|e| e.to.0 == lp.header)
        .flat_map(|e| e.moves.iter().map(|m| m.dst.0).collect::<Vec<_>>())
        .collect();
    let mut h = st.clone();
    h.dom.guard = Term::tt();
    let mut vars: Vec<(Var, Term)> = Vec::new();
    for &r in &regs {
        let w = prog.width(body.slot_types[r as usize])?;
        let v = fresh(shared, HAVOC_PREFIX, w);
        h.regs_mut(0)?[r as usize] = SymVal::from_term(v.clone());
        if carried.contains(&r) {
            vars.push((Var::Reg(r), v));
        }
    }
    // Locals declared in the body are dead at the head after an iteration, and carry nothing.
    let declared = scoped(prog, body, &lp.body, st);
    for &id in &declared {
        h.mem.end_lifetime(id);
    }
    for &id in objs.iter().filter(|id| !declared.contains(id)) {
        let o = h.mem.object_mut(id)?;
        let n = o.size() as usize;
        if !matches!(n, 1 | 2 | 4 | 8) || o.contents.flat().is_none() {
            return None;
        }
        let v = fresh(shared, HAVOC_PREFIX, 8 * n as u32);
        let mut bytes = vec![SymByte::Const(0); n];
        h.dom
            .val_to_bytes(&SymVal::from_term(v.clone()), 8 * n as u32, &mut bytes);
        h.mem
            .object_mut(id)?
            .contents
            .write(0, n, |b| b.clone_from_slice(&bytes));
        vars.push((Var::Object(id), v));
    }
    let mut u = Unwinder::new(prog, opts.clone(), shared.clone()).bound_entry_loop(func, index, 1);
    for j in inner {
        u = u.bound_entry_loop(func, j, INNER_BOUND);
    }
    let f = u
        .capturing(Capture {
            index,
            back_edge: true,
        })
        .without_joins()
        .run_from(h.clone());
    let mut out = Vec::new();
    for c in f.captured.iter().take(MAX_PATHS) {
        if let Some(mut p) = path(&h, c, &vars, &objs) {
            p.declared = declared.clone();
            out.push(p);
        }
    }
    Some(out)
}

/// The loops directly inside loop `index` when none of them holds a loop itself (an inner loop of a
/// fixed trip count is unwound in the probe iteration); `None` for deeper nests.
fn inner_loops(ls: &Loops, index: usize) -> Option<Vec<usize>> {
    let lp = &ls.loops[index];
    let mut inner = Vec::new();
    for (b, nest) in ls.nest.iter().enumerate() {
        if !lp.body[b] {
            continue;
        }
        let at = nest.iter().position(|&l| l == index)?;
        match &nest[at + 1..] {
            [] => {}
            [j] => {
                if !inner.contains(j) {
                    inner.push(*j);
                }
            }
            _ => return None,
        }
    }
    Some(inner)
}

/// The path of `c` (back at the head from the havocked `h`), when its closed form is exact.
fn path(
    h: &State<Guarded>,
    c: &State<Guarded>,
    vars: &[(Var, Term)],
    objs: &[u32],
) -> Option<Path> {
    same_frame_and_memory(h, c, objs).ok()?;
    if c.dom.events.len() != h.dom.events.len() {
        return None;
    }
    let mut steps = Vec::new();
    for (var, v) in vars {
        steps.push((*var, v.clone(), value(c, *var, v.width())?));
    }
    let steps = classify(steps)?;
    let linear = |t: &Term| {
        steps
            .iter()
            .any(|(_, v, s)| v == t && matches!(s, Step::Linear(_)))
    };
    let moving: Vec<&Term> = steps
        .iter()
        .filter(|(_, _, s)| matches!(s, Step::Linear(d) if *d != 0))
        .map(|(_, v, _)| v)
        .collect();
    // Every havocked value the condition mentions is a variable with a linear step (the others are
    // dead at the head or take other values at the first iteration than at the next ones, and the
    // path's condition must not depend on them).
    let cond = c.dom.guard.clone();
    let free = cond.free_vars();
    let known = free
        .iter()
        .all(|t| !t.as_var().is_some_and(|n| n.starts_with(HAVOC_PREFIX)) || linear(t));
    if !known || !conjuncts(&cond).iter().all(|a| interval(a, &moving)) {
        return None;
    }
    Some(Path {
        cond,
        steps,
        declared: Vec::new(),
    })
}

/// Each variable's step, from its value at the end of the iteration (`now`): `None` when one of them
/// has no exact closed form.
fn classify(vals: Vec<(Var, Term, Term)>) -> Option<Vec<(Var, Term, Step)>> {
    let havocked = |t: &Term| {
        t.free_vars()
            .iter()
            .any(|v| v.as_var().is_some_and(|n| n.starts_with(HAVOC_PREFIX)))
    };
    let linear: Vec<Option<u128>> = vals.iter().map(|(_, v, now)| increment(now, v)).collect();
    let mut steps = Vec::new();
    for (i, (var, v, now)) in vals.iter().enumerate() {
        let step = if let Some(c) = linear[i] {
            Step::Linear(c)
        } else if !havocked(now) {
            Step::Reset(now.clone())
        } else {
            let d = now.bvsub(v);
            let (of, e) = (0..vals.len())
                .filter(|&j| j != i && linear[j].is_some() && vals[j].1.width() == v.width())
                .find_map(|j| Some((j, d.bvsub(&vals[j].1).as_bv()?)))?;
            Step::Progression { of, e }
        };
        steps.push((*var, v.clone(), step));
    }
    Some(steps)
}

/// The value of `var` in `st`, of width `w`.
fn value(st: &State<Guarded>, var: Var, w: u32) -> Option<Term> {
    match var {
        Var::Reg(r) => Some(st.regs(0)?[r as usize].term(w)),
        Var::Object(id) => {
            let o = st.mem.object(id)?;
            let n = o.size() as usize;
            if !o.contents.is_init(0, n) {
                return None;
            }
            let bytes = o.contents.flat()?.to_vec();
            let mut d = st.dom.clone();
            Some(d.bytes_to_val(&bytes, w).term(w))
        }
    }
}

/// `now - before` when it is a constant.
fn increment(now: &Term, before: &Term) -> Option<u128> {
    if now == before {
        return Some(0);
    }
    if let Some(c) = now.bvsub(before).as_bv() {
        return Some(c);
    }
    match (now.op(), now.args()) {
        (Op::BvAdd, [a, b]) if a == before => b.as_bv(),
        (Op::BvAdd, [a, b]) if b == before => a.as_bv(),
        _ => None,
    }
}

/// The conjuncts of `t`.
fn conjuncts(t: &Term) -> Vec<Term> {
    match t.op() {
        Op::And => t.args().iter().flat_map(conjuncts).collect(),
        _ => vec![t.clone()],
    }
}

/// Whether the iterations at which atom `a` holds form an interval, given that the `moving` values
/// change linearly without wrapping: a comparison whose operands are each a moving value or free of
/// them (an equality only unnegated).
fn interval(a: &Term, moving: &[&Term]) -> bool {
    let mentions = |t: &Term| t.free_vars().iter().any(|v| moving.contains(&v));
    if !mentions(a) {
        return true;
    }
    let (a, negated) = match a.op() {
        Op::Not => (a.arg(0).clone(), true),
        _ => (a.clone(), false),
    };
    let linear = |t: &Term| !mentions(t) || moving.contains(&t);
    match a.op() {
        Op::BvUlt | Op::BvUle | Op::BvSlt | Op::BvSle => a.args().iter().all(linear),
        Op::Eq if !negated => a.args().iter().all(linear),
        _ => false,
    }
}

fn fresh(shared: &Rc<RefCell<Shared>>, prefix: &str, w: u32) -> Term {
    let k = shared.borrow_mut().fresh();
    Term::var(&format!("{prefix}{k}"), Sort::bv(w))
}

/// `x` resized to `w` bits (zero-extended or truncated).
fn resize(x: &Term, w: u32) -> Term {
    match x.width().cmp(&w) {
        std::cmp::Ordering::Less => x.zext_to(w),
        std::cmp::Ordering::Equal => x.clone(),
        std::cmp::Ordering::Greater => x.extract(w - 1, 0),
    }
}

/// `st` after `n ≥ 1` iterations of `p`, `n` fresh: the variables at their closed forms, the guard
/// with the path's condition at iterations `0` and `n−1` and no wrap-around of the moving variables
/// between them.
fn apply(shared: &Rc<RefCell<Shared>>, st: &State<Guarded>, p: &Path) -> Option<State<Guarded>> {
    let n = fresh(shared, "bmc_accel_n", N_WIDTH);
    let last = n.bvsub(&Term::bv(1, N_WIDTH));
    let mut first = TermMap::default();
    let mut at_last = TermMap::default();
    let mut guard = st.dom.guard.and(&n.ne(&Term::bv(0, N_WIDTH)));
    let mut initial = Vec::new();
    for (var, v, _) in &p.steps {
        initial.push(value(st, *var, v.width())?);
    }
    let mut finals = Vec::new();
    for ((var, v, step), x0) in p.steps.iter().zip(&initial) {
        let w = v.width();
        first.insert(v.clone(), x0.clone());
        let x = match step {
            Step::Linear(c) => {
                let cw = Term::bv(*c, w);
                at_last.insert(v.clone(), x0.bvadd(&cw.bvmul(&resize(&last, w))));
                if *c != 0 {
                    guard = guard.and(&no_wrap(x0, *c, &last));
                }
                x0.bvadd(&cw.bvmul(&resize(&n, w)))
            }
            Step::Progression { of, e } => {
                let Step::Linear(cy) = &p.steps[*of].2 else {
                    return None;
                };
                let cy = *cy;
                let y0 = &initial[*of];
                let per = y0.bvadd(&Term::bv(*e, w));
                x0.bvadd(&resize(&n, w).bvmul(&per))
                    .bvadd(&Term::bv(cy, w).bvmul(&triangle(&n, w)))
            }
            Step::Reset(t) => t.clone(),
        };
        finals.push((*var, x));
    }
    guard = guard
        .and(&p.cond.substitute(&first))
        .and(&p.cond.substitute(&at_last));
    if guard.is_false() {
        return None;
    }
    let mut s = st.clone();
    s.dom.guard = guard;
    for (var, x) in finals {
        set(&mut s, var, &x)?;
    }
    for &id in &p.declared {
        s.mem.end_lifetime(id);
    }
    Some(s)
}

/// `n(n−1)/2` in `w` bits: the product in `2·N_WIDTH` bits, where it does not wrap (and is even), halved
/// there, then cut to `w` bits (exact modulo 2^w).
fn triangle(n: &Term, w: u32) -> Term {
    let wide = 2 * N_WIDTH;
    let k = n.zext_to(wide);
    let t = k
        .bvmul(&k.bvsub(&Term::bv(1, wide)))
        .bvlshr(&Term::bv(1, wide));
    resize(&t, w)
}

/// `x₀ + c·k` stays within the range of `x₀`'s width, read unsigned and read signed, for `k` up to
/// `last` (it is linear in `k`, so its ends decide).
fn no_wrap(x0: &Term, c: u128, last: &Term) -> Term {
    let w = x0.width();
    let wide = w + N_WIDTH + 2;
    let c = Term::bv(c, w).sext_to(wide);
    let k = last.zext_to(wide);
    let unsigned = x0.zext_to(wide).bvadd(&c.bvmul(&k));
    let signed = x0.sext_to(wide).bvadd(&c.bvmul(&k));
    let zero = Term::bv(0, wide);
    let umax = Term::bv((1u128 << w) - 1, wide);
    let smin = Term::bv_signed(-(1i128 << (w - 1)), wide);
    let smax = Term::bv((1u128 << (w - 1)) - 1, wide);
    zero.bvsle(&unsigned)
        .and(&unsigned.bvsle(&umax))
        .and(&smin.bvsle(&signed))
        .and(&signed.bvsle(&smax))
}

/// Sets `var` to `x` in `s`.
fn set(s: &mut State<Guarded>, var: Var, x: &Term) -> Option<()> {
    match var {
        Var::Reg(r) => s.regs_mut(0)?[r as usize] = SymVal::from_term(x.clone()),
        Var::Object(id) => {
            let n = (x.width() / 8) as usize;
            let mut bytes = vec![SymByte::Const(0); n];
            s.dom
                .val_to_bytes(&SymVal::from_term(x.clone()), x.width(), &mut bytes);
            s.mem
                .object_mut(id)?
                .contents
                .write(0, n, |b| b.clone_from_slice(&bytes));
        }
    }
    Some(())
}
