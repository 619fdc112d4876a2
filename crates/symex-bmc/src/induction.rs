//! k-induction (`--k-induction`, as ESBMC and CPAchecker prove unbounded loops): besides the base case
//! (bounded model checking to depth `k`, no violation), the *inductive step* — from an arbitrary state at
//! the loop head in which the property held for `k` consecutive iterations, it holds in the next — proves
//! `true` where no bound covers the loop.
//!
//! The arbitrary state is the one state that first reaches the loop head (the prefix run) with what the
//! loop writes *havocked*: every register the loop defines and every object it stores to directly gets
//! fresh variables; the rest and the prefix's guard are kept (so ranges of what the loop never writes stay
//! known). That this over-approximates every reachable head state is not assumed but checked: one
//! iteration from the havocked state must give back states whose other objects are unchanged term for
//! term, whose object statuses are the same, and whose frame has the same shape; otherwise no step.
//!
//! Invariant strengthening (Houdini-style): candidates `a ≤ b` / `a ≥ b` read from the loop guard `a < b`
//! (`a != b`, `a > b`, on variables loaded from locals) are kept only when they hold at the first arrival
//! and are preserved by one iteration under the candidates kept; the step assumes the survivors. Also
//! `a + b == c` over the scalar locals the loop loads (one of them written by it), e.g. `x + y == n`
//! for a loop that counts `x` down and `y` up.
//!
//! The step formula: the violations at iteration `k+1` from the havocked state, conjoined with the
//! negations of the violations at iterations `1..k` (their inputs after the divergence are other
//! variables, which only weakens the assumption: sound). Unsatisfiable, with a base case that found no
//! violation, means no violation at any depth (a shortest violation at iteration `m > k` would satisfy it
//! from its head state at iteration `m - k`).

use crate::guarded::Shared;
use crate::loops::Loops;
use crate::merge::join;
use crate::unwind::{Capture, Formulas, Options, Unwinder};
use crate::verdict::Class;
use std::cell::RefCell;
use std::rc::Rc;
use symex_engine::memory::Lookup;
use symex_engine::{BugKind, Program, State};
use symex_explore::symbolic::{SymByte, SymVal};
use symex_expr::{Sort, Term};
use symex_ir::{Body, CastOp, Inst, IntPred, Intrinsic, Operand, Terminator};
use symex_solver::SatResult;

use crate::guarded::Guarded;

/// The loop k-induction is about: the only loop whose bound the base case reached.
pub(crate) struct Target {
    pub(crate) func: u32,
    index: usize,
    pub(crate) line: u32,
}

/// A local variable as the loop guard reads it: `size` bytes of object `obj` at `off`, extended to
/// `width` bits by `ext`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LocalRead {
    pub(crate) obj: u32,
    pub(crate) off: u64,
    pub(crate) size: u32,
    pub(crate) ext: Option<CastOp>,
    pub(crate) width: u32,
}

/// A candidate invariant.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Candidate {
    /// `a ≤ b` (signed or unsigned), read from the loop guard.
    Le {
        a: LocalRead,
        b: LocalRead,
        signed: bool,
    },
    /// `a + b == c` in the locals' width (wrapping), over scalar locals the loop reads, one of the three
    /// written by it: a count up and a count down (`x + y == n` of `x--, y++`) keep their sum.
    Sum {
        a: LocalRead,
        b: LocalRead,
        c: LocalRead,
    },
}

/// Most scalar locals the sum candidates range over (their number grows with the cube).
const MAX_SUM_LOCALS: usize = 8;

/// The result of a check of the inductive step: holds, or why not.
pub type Step = Result<(), String>;

/// The inductive step's outcome: proven, with the loop invariants it assumed in the source's terms
/// (empty when one of them has no C form: a subset of a jointly inductive set need not be inductive),
/// or why not.
pub type Proof = Result<Vec<symex_engine::LoopInvariant>, StepFailure>;

/// Why the inductive step does not hold, and whether a deeper bound might change that.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepFailure {
    pub why: String,
    /// The step's query was answered with a head state that has no violation for `k` iterations and
    /// one in the next: a larger `k` may prove it. Every other failure (a shape the step cannot model,
    /// a solver without an answer) stays the same at any `k`.
    pub k_too_small: bool,
    /// The strengthening invariants (Houdini's survivors) the failed step assumed.
    pub survivors: usize,
}

impl From<String> for StepFailure {
    fn from(why: String) -> StepFailure {
        StepFailure {
            why,
            k_too_small: false,
            survivors: 0,
        }
    }
}

impl From<&str> for StepFailure {
    fn from(why: &str) -> StepFailure {
        StepFailure::from(why.to_string())
    }
}

/// The inductive step for the loop `function:line` at `k`, the base case having found no violation and
/// only that loop's bound reachable. `queries` counts the solver queries.
pub fn inductive_step(
    prog: &Program,
    opts: &Options,
    loop_name: &str,
    k: u32,
    classify: &dyn Fn(BugKind) -> Class,
    shared: &Rc<RefCell<Shared>>,
    queries: &mut u64,
) -> Proof {
    let target = find_target(prog, opts, loop_name)?;
    let body = prog.module().functions[target.func as usize]
        .body
        .as_ref()
        .ok_or("the loop's function has no body")?;
    let ls = Loops::of(body);
    let lp = &ls.loops[target.index];
    let s0 = first_arrival(prog, opts, &target, shared)?;
    let (regs, objs) = written(prog, body, &lp.body, &s0)?;
    let declared = scoped(prog, body, &lp.body, &s0);
    let mut havocked = havoc(prog, body, &s0, &regs, &objs, shared)?;
    for &id in &declared {
        havocked.mem.end_lifetime(id);
    }
    let carried: Vec<u32> = objs
        .iter()
        .copied()
        .filter(|id| !declared.contains(id))
        .collect();
    let mut cands = candidates(prog, body, lp.header, &s0);
    cands.extend(sum_candidates(prog, body, &lp.body, &s0, &regs, &carried));
    // Houdini: drop what fails at the first arrival, then what one iteration does not preserve.
    cands.retain(|c| implied(shared, queries, &s0.dom.guard, &holds(prog, c, &s0)));
    loop {
        let mut h = havocked.clone();
        for c in &cands {
            h.dom.guard = h.dom.guard.and(&holds(prog, c, &h));
        }
        let next = one_iteration(prog, opts, &target, shared, h.clone());
        if !next.incomplete.is_empty() {
            return Err(format!(
                "an iteration from the loop head reaches something not modelled ({})",
                next.incomplete[0].0
            )
            .into());
        }
        if let Some(b) = next.bounds.first() {
            // A run of the iteration that stopped at a bound never came back to be checked.
            return Err(format!(
                "an iteration from the loop head reaches the bound of {}:{}",
                b.function, b.line
            )
            .into());
        }
        for s in &next.captured {
            same_frame_and_memory(&h, s, &objs)?;
        }
        let before = cands.len();
        cands.retain(|c| {
            next.captured
                .iter()
                .all(|s| implied(shared, queries, &s.dom.guard, &holds(prog, c, s)))
        });
        if cands.len() == before {
            let survivors = cands.len();
            step(prog, opts, &target, k, classify, shared, queries, h)
                .map_err(|f| StepFailure { survivors, ..f })?;
            return Ok(crate::invariant::in_source(
                prog, body, &target, &s0, &cands,
            ));
        }
    }
}

/// The loop `function:line`, when it is a loop of the entry function.
fn find_target(prog: &Program, opts: &Options, loop_name: &str) -> Result<Target, String> {
    let (f, line) = loop_name
        .rsplit_once(':')
        .ok_or("internal: a loop without a line")?;
    let line: u32 = line
        .parse()
        .map_err(|_| "internal: a loop without a line")?;
    if f != opts.entry {
        return Err(format!(
            "the loop {loop_name} is not in the entry function {}",
            opts.entry
        ));
    }
    let func = prog
        .module()
        .functions
        .iter()
        .position(|x| *x.name == *f)
        .ok_or("internal: no entry function")? as u32;
    let body = prog.module().functions[func as usize]
        .body
        .as_ref()
        .ok_or("the entry function has no body")?;
    let ls = Loops::of(body);
    let idx: Vec<usize> = (0..ls.loops.len())
        .filter(|&i| ls.loops[i].line == line)
        .collect();
    match idx.as_slice() {
        [i] if ls.nest[ls.loops[*i].header as usize].len() == 1 => Ok(Target {
            func,
            index: *i,
            line,
        }),
        [_] => Err(format!("the loop {loop_name} is nested in another loop")),
        _ => Err(format!("no single loop at {loop_name}")),
    }
}

/// The state in which runs first reach the loop head: the prefix run's arrivals, joined into one.
fn first_arrival(
    prog: &Program,
    opts: &Options,
    t: &Target,
    shared: &Rc<RefCell<Shared>>,
) -> Result<State<Guarded>, String> {
    let f = Unwinder::new(prog, opts.clone(), shared.clone())
        .capturing(Capture {
            index: t.index,
            back_edge: false,
        })
        .run()
        .map_err(|e| format!("the program cannot start: {e:?}"))?;
    if !f.incomplete.is_empty() || !f.bounds.is_empty() {
        return Err("the runs before the loop are not all modelled within the bound".into());
    }
    let mut states = f.captured.into_iter();
    let mut s0 = states.next().ok_or("no run reaches the loop")?;
    for s in states {
        if !join(prog, &mut s0, &s) {
            return Err("the runs that reach the loop differ in shape (objects, frames)".into());
        }
    }
    Ok(s0)
}

/// The constant object a frame-0 operand points to at `st`, with its offset.
pub(crate) fn object_of(prog: &Program, st: &State<Guarded>, op: Operand) -> Option<(u32, u64)> {
    let Operand::Slot(s) = op else { return None };
    let v = st.regs(0)?[s.0 as usize].as_const()?;
    let (id, off) = prog.addr.split(v as u64);
    Some((id, off))
}

/// The objects of the locals declared in the loop's body: the body starts their lifetime (clang's
/// `lifetime.start` at the declaration, which no access of the local can precede in C) and an
/// iteration ends it, so from the second arrival at the head on they are dead there. The inductive
/// step and acceleration start from a head state with them dead; the first arrival, where they are
/// still untouched, is the base case's.
pub(crate) fn scoped(
    prog: &Program,
    body: &Body,
    member: &[bool],
    s0: &State<Guarded>,
) -> Vec<u32> {
    let def = |s: symex_ir::Slot| {
        body.blocks
            .iter()
            .flat_map(|b| &b.insts)
            .find(|i| i.dst() == Some(s))
    };
    let mut out = Vec::new();
    for (_, blk) in body.blocks.iter().enumerate().filter(|(b, _)| member[*b]) {
        for inst in &blk.insts {
            let Inst::Intrinsic {
                op: Intrinsic::LifetimeStart,
                args,
                ..
            } = inst
            else {
                continue;
            };
            let Some(mut p) = args.last().copied() else {
                continue;
            };
            // Through the casts to `i8*` clang puts before the marker.
            for _ in 0..4 {
                match p {
                    Operand::Slot(s) => match def(s) {
                        Some(Inst::Copy { src, .. } | Inst::Cast { src, .. }) => p = *src,
                        _ => break,
                    },
                    Operand::Const(_) => break,
                }
            }
            if let Some((id, 0)) = object_of(prog, s0, p) {
                out.push(id);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

type Written = (Vec<u32>, Vec<u32>);

/// What the loop writes: the registers it defines (its instructions' and the phi moves into its blocks)
/// and the objects its stores name directly. Writes through other pointers are caught by the check of
/// one iteration (`same_frame_and_memory`).
pub(crate) fn written(
    prog: &Program,
    body: &Body,
    member: &[bool],
    s0: &State<Guarded>,
) -> Result<Written, String> {
    let mut regs = Vec::new();
    let mut stores = Vec::new();
    for (b, blk) in body.blocks.iter().enumerate() {
        for e in blk.term.edges() {
            if member[e.to.0 as usize] {
                regs.extend(e.moves.iter().map(|m| m.dst.0));
            }
        }
        if !member[b] {
            continue;
        }
        for inst in &blk.insts {
            if let Some(d) = inst.dst() {
                regs.push(d.0);
            }
            let target = match inst {
                Inst::Store { ptr, .. } => Some(*ptr),
                Inst::Alloca { .. } => return Err("the loop allocates stack memory".into()),
                _ => None,
            };
            stores.extend(target);
        }
    }
    regs.sort_unstable();
    regs.dedup();
    // A pointer the loop computes has no value at its head yet: only pointers from before the loop
    // (the locals' addresses) name an object here.
    let mut objs: Vec<u32> = stores
        .into_iter()
        .filter(|p| !matches!(p, Operand::Slot(s) if regs.binary_search(&s.0).is_ok()))
        .filter_map(|p| object_of(prog, s0, p))
        .map(|(id, _)| id)
        .collect();
    objs.sort_unstable();
    objs.dedup();
    Ok((regs, objs))
}

fn fresh(shared: &Rc<RefCell<Shared>>, w: u32) -> Term {
    let k = shared.borrow_mut().fresh();
    Term::var(&format!("kind_havoc{k}"), Sort::bv(w))
}

/// `s0` with the loop's registers and objects replaced by fresh variables.
fn havoc(
    prog: &Program,
    body: &Body,
    s0: &State<Guarded>,
    regs: &[u32],
    objs: &[u32],
    shared: &Rc<RefCell<Shared>>,
) -> Result<State<Guarded>, String> {
    let mut h = s0.clone();
    let frame = h.regs_mut(0).ok_or("no frame")?;
    for &r in regs {
        let w = prog
            .width(body.slot_types[r as usize])
            .ok_or("the loop defines an aggregate register")?;
        frame[r as usize] = SymVal::from_term(fresh(shared, w));
    }
    for &id in objs {
        let o = h
            .mem
            .object_mut(id)
            .ok_or("the loop writes an object that is not live at its head")?;
        let n = o.size() as usize;
        if o.contents.flat().is_none() {
            return Err("the loop writes a large (paged) object".into());
        }
        // Uninitialised bytes are covered too: a load of one is an unconstrained input, fixed from then
        // on, which a fresh variable is as well (`read` keeps candidates off them at the first arrival).
        let values: Vec<SymByte> = (0..n).map(|_| SymByte::Sym(fresh(shared, 8))).collect();
        // `write` marks the bytes initialised: a havocked value is some value the loop stored.
        o.contents
            .write(0, n, |bytes| bytes.clone_from_slice(&values));
    }
    Ok(h)
}

/// A comparison operand of the loop guard traced to a local: `load`, optionally extended.
fn local_read(
    prog: &Program,
    body: &Body,
    header: u32,
    op: Operand,
    s0: &State<Guarded>,
) -> Option<LocalRead> {
    let def = |s: u32| {
        body.blocks[header as usize]
            .insts
            .iter()
            .find(|i| i.dst().is_some_and(|d| d.0 == s))
    };
    let Operand::Slot(s) = op else { return None };
    match def(s.0)? {
        Inst::Load { ptr, size, .. } => {
            let (obj, off) = object_of(prog, s0, *ptr)?;
            Some(LocalRead {
                obj,
                off,
                size: *size,
                ext: None,
                width: size * 8,
            })
        }
        Inst::Cast {
            op: c @ (CastOp::ZExt | CastOp::SExt),
            to,
            src,
            ..
        } => {
            let inner = local_read(prog, body, header, *src, s0)?;
            (inner.ext.is_none()).then_some(LocalRead {
                ext: Some(*c),
                width: *to,
                ..inner
            })
        }
        _ => None,
    }
}

/// Candidate invariants from the loop guard `a pred b` of the header's branch.
fn candidates(prog: &Program, body: &Body, header: u32, s0: &State<Guarded>) -> Vec<Candidate> {
    let blk = &body.blocks[header as usize];
    let Terminator::CondBr {
        cond: Operand::Slot(c),
        ..
    } = &blk.term
    else {
        return Vec::new();
    };
    let Some(Inst::ICmp { pred, lhs, rhs, .. }) = blk
        .insts
        .iter()
        .find(|i| i.dst().is_some_and(|d| d.0 == c.0))
    else {
        return Vec::new();
    };
    let (Some(a), Some(b)) = (
        local_read(prog, body, header, *lhs, s0),
        local_read(prog, body, header, *rhs, s0),
    ) else {
        return Vec::new();
    };
    let le = |a, b, signed| Candidate::Le { a, b, signed };
    use IntPred as P;
    match pred {
        P::Ult | P::Ule => vec![le(a, b, false)],
        P::Slt | P::Sle => vec![le(a, b, true)],
        P::Ugt | P::Uge => vec![le(b, a, false)],
        P::Sgt | P::Sge => vec![le(b, a, true)],
        P::Ne => vec![
            le(a, b, false),
            le(a, b, true),
            le(b, a, false),
            le(b, a, true),
        ],
        P::Eq => Vec::new(),
    }
}

/// The value of `r` in `st` (little-endian bytes of the object, extended as the guard does).
fn read(r: &LocalRead, st: &State<Guarded>) -> Option<Term> {
    let o = st.mem.object(r.obj)?;
    let bytes = o.contents.flat()?;
    let lo = r.off as usize;
    // An uninitialised byte has no value yet (its placeholder is not what a load would give).
    if !o.contents.is_init(lo, r.size as usize) {
        return None;
    }
    let part = bytes.get(lo..lo + r.size as usize)?;
    let mut t: Option<Term> = None;
    for b in part {
        let bt = match b {
            SymByte::Const(c) => Term::bv(*c as u128, 8),
            SymByte::Sym(t) => t.clone(),
        };
        t = Some(match t {
            None => bt,
            Some(low) => bt.concat(&low),
        });
    }
    let t = t?;
    Some(match r.ext {
        Some(CastOp::SExt) => t.sext_to(r.width),
        Some(_) => t.zext_to(r.width),
        None => t,
    })
}

/// Candidates `a + b == c` over the scalar locals the loop loads from (through addresses computed
/// before it), each triple of one width with at least one local the loop writes (`objs`).
fn sum_candidates(
    prog: &Program,
    body: &Body,
    member: &[bool],
    s0: &State<Guarded>,
    regs: &[u32],
    objs: &[u32],
) -> Vec<Candidate> {
    let mut locals: Vec<LocalRead> = Vec::new();
    let allocas: Vec<u32> = body
        .blocks
        .iter()
        .flat_map(|blk| &blk.insts)
        .filter_map(|i| match i {
            Inst::Alloca { dst, .. } => Some(dst.0),
            _ => None,
        })
        .collect();
    // The loop's own loads first, then the function's others (a bound is often read only after the
    // loop, as `n` in `assert(y == n)`).
    let order = (0..body.blocks.len())
        .filter(|&b| member[b])
        .chain((0..body.blocks.len()).filter(|&b| !member[b]));
    for inst in order.flat_map(|b| &body.blocks[b].insts) {
        let Inst::Load { ptr, size, .. } = inst else {
            continue;
        };
        // Only locals' own addresses: a pointer computed later has no value at the loop head.
        let local = matches!(ptr, Operand::Slot(s) if allocas.contains(&s.0) && regs.binary_search(&s.0).is_err());
        if !local {
            continue;
        }
        let Some((obj, off)) = object_of(prog, s0, *ptr) else {
            continue;
        };
        let r = LocalRead {
            obj,
            off,
            size: *size,
            ext: None,
            width: size * 8,
        };
        let seen = locals
            .iter()
            .any(|l| (l.obj, l.off, l.size) == (obj, off, *size));
        if matches!(size, 1 | 2 | 4 | 8) && !seen && locals.len() < MAX_SUM_LOCALS {
            locals.push(r);
        }
    }
    let written = |l: &LocalRead| objs.contains(&l.obj);
    let mut out = Vec::new();
    for (i, a) in locals.iter().enumerate() {
        for b in &locals[i + 1..] {
            for c in &locals {
                let distinct = [a, b].iter().all(|x| (x.obj, x.off) != (c.obj, c.off));
                let width = a.size == b.size && b.size == c.size;
                if distinct && width && (written(a) || written(b) || written(c)) {
                    out.push(Candidate::Sum {
                        a: *a,
                        b: *b,
                        c: *c,
                    });
                }
            }
        }
    }
    out
}

/// The candidate's formula in `st`; false (never implied) when a side cannot be read.
fn holds(_prog: &Program, c: &Candidate, st: &State<Guarded>) -> Term {
    match c {
        Candidate::Le { a, b, signed } => match (read(a, st), read(b, st)) {
            (Some(a), Some(b)) if a.width() == b.width() => {
                if *signed {
                    a.bvsle(&b)
                } else {
                    a.bvule(&b)
                }
            }
            _ => Term::ff(),
        },
        Candidate::Sum { a, b, c } => match (read(a, st), read(b, st), read(c, st)) {
            (Some(a), Some(b), Some(c)) if a.width() == b.width() && b.width() == c.width() => {
                a.bvadd(&b).eq(&c)
            }
            _ => Term::ff(),
        },
    }
}

/// Whether `guard ⇒ f` (the solver proves `guard ∧ ¬f` unsatisfiable).
fn implied(shared: &Rc<RefCell<Shared>>, queries: &mut u64, guard: &Term, f: &Term) -> bool {
    let q = guard.and(&f.not());
    if q.is_false() {
        return true;
    }
    *queries += 1;
    matches!(shared.borrow_mut().check(&[q]), SatResult::Unsat)
}

/// One iteration from `h`: the states that come back to the loop head.
fn one_iteration(
    prog: &Program,
    opts: &Options,
    t: &Target,
    shared: &Rc<RefCell<Shared>>,
    h: State<Guarded>,
) -> Formulas {
    Unwinder::new(prog, opts.clone(), shared.clone())
        .bound_entry_loop(t.func, t.index, 1)
        .capturing(Capture {
            index: t.index,
            back_edge: true,
        })
        .run_from(h)
}

/// Checks that `s` (back at the head after an iteration from `h`) differs from `h` only in what was
/// havocked: the frame's shape, every object's status and size, and the bytes of objects not havocked.
pub(crate) fn same_frame_and_memory(h: &State<Guarded>, s: &State<Guarded>, objs: &[u32]) -> Step {
    let (fa, fb) = (&h.frames()[0], &s.frames()[0]);
    let shape = s.frames().len() == 1
        && fa.func == fb.func
        && fa.block == fb.block
        && fa.inst == fb.inst
        && fa.allocas == fb.allocas
        && fa.aggs().is_empty()
        && fb.aggs().is_empty()
        && format!("{:?}", h.stdin) == format!("{:?}", s.stdin);
    if !shape {
        return Err("an iteration changes the frame or standard input".into());
    }
    for id in 0..s.mem.object_count() as u32 {
        let same = match (h.mem.lookup(id), s.mem.lookup(id)) {
            (Lookup::Live(x), Lookup::Live(y)) => {
                std::ptr::eq(x, y)
                    || (x.size() == y.size()
                        && x.kind == y.kind
                        && ((objs.contains(&id) && y.contents.is_init(0, y.size() as usize))
                            || (x.contents.flat().is_some()
                                && x.contents.flat() == y.contents.flat()
                                && (0..x.size() as usize).all(|i| {
                                    x.contents.is_init(i, 1) == y.contents.is_init(i, 1)
                                }))))
            }
            (Lookup::Dead(a), Lookup::Dead(b)) => a == b,
            (Lookup::Live(_), _) | (_, Lookup::Live(_)) => false,
            // Objects of returned calls.
            (Lookup::Nothing, _) => true,
            (x, y) => std::mem::discriminant(&x) == std::mem::discriminant(&y),
        };
        if !same {
            return Err(format!(
                "an iteration writes memory outside what is havocked (object {id})"
            ));
        }
    }
    Ok(())
}

/// The inductive step from `h` (invariants in its guard): violations at iteration `k+1` while none at
/// iterations `1..k`.
#[allow(clippy::too_many_arguments)]
fn step(
    prog: &Program,
    opts: &Options,
    t: &Target,
    k: u32,
    classify: &dyn Fn(BugKind) -> Class,
    shared: &Rc<RefCell<Shared>>,
    queries: &mut u64,
    h: State<Guarded>,
) -> Result<(), StepFailure> {
    let f = Unwinder::new(prog, opts.clone(), shared.clone())
        .bound_entry_loop(t.func, t.index, k + 1)
        .separating(t.index)
        .run_from(h);
    if let Some(b) = f
        .bounds
        .iter()
        .find(|b| b.function != opts.entry || b.line != t.line)
    {
        return Err(format!("the step reaches the bound of {}:{}", b.function, b.line).into());
    }
    let mut at: Vec<Vec<Term>> = vec![Vec::new(); k as usize + 1];
    for e in &f.errors {
        if classify(e.bug.kind) == Class::End {
            continue;
        }
        let j = e.entry_counts.get(t.index).copied().unwrap_or(0) as usize;
        at[j.min(k as usize)].push(e.guard.clone());
    }
    let mut q = Term::or_all(&at[k as usize]);
    for e in &at[..k as usize] {
        q = q.and(&Term::or_all(e).not());
    }
    let incomplete = Term::or_all(f.incomplete.iter().map(|(_, g)| g));
    let q = q.or(&incomplete);
    if q.is_false() {
        return Ok(());
    }
    *queries += 1;
    match shared.borrow_mut().check(&[q]) {
        SatResult::Unsat => Ok(()),
        SatResult::Sat(_) => Err(StepFailure {
            why: format!(
                "the inductive step fails at k = {k} (a state at the loop head with no violation for {k} iterations has one in the next)"
            ),
            k_too_small: true,
            survivors: 0,
        }),
        SatResult::Unknown(u) => Err(format!("the solver gave no answer on the step: {u}").into()),
    }
}
