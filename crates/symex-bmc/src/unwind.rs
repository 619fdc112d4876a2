//! Merging symbolic execution with loops and recursion unwound: the executor that builds the formulas of
//! bounded model checking by running `symex-engine`'s instruction semantics over the [`Guarded`] domain.
//!
//! Branches do not fork for good: each side runs under its guard, and states that reach the same point
//! (same call stack, block, instruction and loop iterations) are joined ([`crate::merge`]). The schedule
//! makes every join happen: states run in the order of a key that every step increases (per frame: the
//! loop iteration counts, outer loops first, then the block's reverse post-order position and the
//! instruction), always the least first, so all states that will reach a point are there before it runs on
//! — the join points are the immediate post-dominators of the branches, found without computing them.
//!
//! Nothing stops at an error: a state that ends in a bug adds its guard to that bug's formula. A loop
//! whose body would start a `K+1`-th time per entry, or a `K+1`-th nested activation of a function, adds
//! the state's guard to the *unwinding assertion* and the state ends there.

use crate::guarded::{Guarded, InputEvent, Shared};
use crate::loops::Loops;
use crate::merge::join;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};
use symex_engine::regs::RegisterFile;
use symex_engine::{Bug, Checks, End, Halt, Program, State};
use symex_expr::Term;
use symex_ir::{Inst, Operand};

/// How far to unwind, and what to run.
#[derive(Clone, Debug)]
pub struct Options {
    pub entry: String,
    pub checks: Checks,
    /// Iterations of each loop per entry, and nested activations of each function beyond the first.
    pub unwind: u32,
    /// Per-loop bounds: (function, source line of the loop header, bound).
    pub unwindset: Vec<(String, u32, u32)>,
    pub max_time: Option<Duration>,
    /// Symbolic bytes of standard input.
    pub stdin: usize,
    /// Also look for violations with loop acceleration ([`crate::accelerate`]): only a FALSE is taken
    /// from that run.
    pub accelerate: bool,
    /// The source, to confirm long counterexamples on its native build ([`crate::confirm`]); without
    /// it the interpreter replays them to the end.
    pub native: Option<crate::confirm::NativeSource>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            entry: "main".into(),
            checks: Checks::default(),
            unwind: 1,
            unwindset: Vec::new(),
            max_time: None,
            stdin: 0,
            accelerate: false,
            native: None,
        }
    }
}

/// A bug some runs reach: the guard says which.
#[derive(Clone, Debug)]
pub struct ErrorRecord {
    pub bug: Bug,
    pub guard: Term,
    /// The inputs of the runs that reach it, each under its guard.
    pub events: Vec<Rc<InputEvent>>,
    /// The iteration counts of the entry function's loops when it was reached (k-induction tells the
    /// iterations of its loop apart by them).
    pub entry_counts: Vec<u32>,
}

/// A loop (or a recursive function) whose bound some runs reach.
#[derive(Clone, Debug)]
pub struct BoundReached {
    pub function: String,
    pub line: u32,
    pub guard: Term,
}

/// What the unwound program says: the formulas of bounded model checking.
#[derive(Debug, Default)]
pub struct Formulas {
    pub errors: Vec<ErrorRecord>,
    /// The unwinding assertions.
    pub bounds: Vec<BoundReached>,
    /// Runs that reach something not modelled, or were stopped by a limit: no verdict rests on them.
    pub incomplete: Vec<(String, Term)>,
    /// States joined.
    pub joins: u64,
    /// Steps executed (over all states).
    pub steps: u64,
    /// States stopped where [`Capture`] asked (k-induction's loop head).
    pub captured: Vec<State<Guarded>>,
    /// Accelerated transitions taken ([`Unwinder::accelerating`]).
    pub accelerated: u64,
    /// States dropped in the bug-free tail ([`Unwinder::slicing_tail`]).
    pub sliced: u64,
}

/// Where the executor stops states and hands them back (in [`Formulas::captured`]): on arrival at the
/// header of loop `index` of the entry function, from outside the loop or along a back edge.
#[derive(Clone, Copy, Debug)]
pub struct Capture {
    pub index: usize,
    pub back_edge: bool,
}

/// A state of the merging executor: the engine's state and the loop iteration counts of each frame.
#[derive(Clone)]
struct Live {
    st: State<Guarded>,
    /// Per frame, per loop of its function (in `Loops::loops` order): iterations in the current entry.
    counts: Vec<Vec<u32>>,
    key: Vec<u32>,
}

/// The loop a source line names, for `--show-loops`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopName {
    pub function: String,
    pub line: u32,
}

/// The loops of every function of `prog`, as `--show-loops` lists them.
pub fn list_loops(prog: &Program) -> Vec<LoopName> {
    let mut out = Vec::new();
    for f in &prog.module().functions {
        if let Some(body) = &f.body {
            for l in Loops::of(body).loops {
                out.push(LoopName {
                    function: f.name.to_string(),
                    line: l.line,
                });
            }
        }
    }
    out
}

/// The merging executor of one program at one bound.
pub struct Unwinder<'p> {
    prog: &'p Program,
    opts: Options,
    shared: Rc<RefCell<Shared>>,
    loops: Vec<Loops>,
    /// Per function, per loop: its bound.
    bounds: Vec<Vec<u32>>,
    out: Formulas,
    capture: Option<Capture>,
    /// Stop the states at every arrival at a loop header of the entry function (the Horn-clause
    /// encoding's cut points: each run between two of them is one clause).
    capture_headers: bool,
    /// A loop of the entry function whose iterations are never joined (k-induction tells them apart).
    separate: Option<usize>,
    /// Whether states that reach the same point are joined (loop acceleration keeps the paths of one
    /// iteration apart).
    joins: bool,
    /// Whether the heads of the entry function's loops also take accelerated transitions.
    accelerate: bool,
    /// Per function: a call beyond its recursion bound returns a fresh value ([`crate::recursion`]).
    abstracted: Option<Vec<bool>>,
    /// States that arrive where no bug is reachable are dropped ([`crate::tail`]).
    tail: Option<crate::tail::Tail>,
}

impl<'p> Unwinder<'p> {
    pub fn new(prog: &'p Program, opts: Options, shared: Rc<RefCell<Shared>>) -> Unwinder<'p> {
        let loops: Vec<Loops> = prog
            .module()
            .functions
            .iter()
            .map(|f| f.body.as_ref().map(Loops::of).unwrap_or_default())
            .collect();
        let bounds = prog
            .module()
            .functions
            .iter()
            .zip(&loops)
            .map(|(f, ls)| {
                ls.loops
                    .iter()
                    .map(|l| {
                        opts.unwindset
                            .iter()
                            .find(|(fun, line, _)| *fun == *f.name && *line == l.line)
                            .map_or(opts.unwind, |(_, _, k)| *k)
                    })
                    .collect()
            })
            .collect();
        Unwinder {
            prog,
            opts,
            shared,
            loops,
            bounds,
            out: Formulas::default(),
            capture: None,
            capture_headers: false,
            separate: None,
            joins: true,
            accelerate: false,
            abstracted: None,
            tail: None,
        }
    }

    /// Drops the states that arrive in the program's bug-free tail ([`crate::tail`]): no error and no
    /// unwinding assertion is reachable from them.
    pub(crate) fn slicing_tail(mut self) -> Self {
        self.tail = crate::tail::Tail::of(self.prog, &self.opts.checks);
        self
    }

    /// Lets a call beyond the recursion bound of a function without side effects (`pure`, per
    /// function) return a fresh value instead of reaching the bound.
    pub(crate) fn abstracting_recursion(mut self, pure: Vec<bool>) -> Self {
        self.abstracted = Some(pure);
        self
    }

    /// Never joins states: each path is a state of its own.
    pub fn without_joins(mut self) -> Self {
        self.joins = false;
        self
    }

    /// Lets a state at the head of a loop of the entry function also take `n ≥ 1` iterations of one
    /// path at once ([`crate::accelerate`]); such a transition counts as one iteration.
    pub fn accelerating(mut self) -> Self {
        self.accelerate = true;
        self
    }

    /// Keeps the states of different iterations of loop `index` of the entry function apart, also after
    /// the loop (each [`ErrorRecord::entry_counts`] then holds for its whole guard).
    pub fn separating(mut self, index: usize) -> Self {
        self.separate = Some(index);
        self
    }

    /// Stops the states that reach `c` instead of running them on.
    pub fn capturing(mut self, c: Capture) -> Self {
        self.capture = Some(c);
        self
    }

    /// Stops the states that arrive at any loop header of the entry function (from outside the loop or
    /// along a back edge) instead of running them on; every loop of the entry function gets the bound
    /// 1, so that no run there is cut by a bound before it reaches a header.
    pub fn capturing_headers(mut self) -> Self {
        self.capture_headers = true;
        if let Some(f) = self
            .prog
            .module()
            .functions
            .iter()
            .position(|f| *f.name == *self.opts.entry)
        {
            self.bounds[f].iter_mut().for_each(|b| *b = 1);
        }
        self
    }

    /// Sets the bound of loop `index` of the entry function to `k`.
    pub fn bound_entry_loop(mut self, func: u32, index: usize, k: u32) -> Self {
        self.bounds[func as usize][index] = k;
        self
    }

    /// Unwinds the program and returns its formulas; `Err` when it cannot start.
    pub fn run(self) -> Result<Formulas, End> {
        let prog = self.prog;
        let mut st = State::new(prog, Guarded::new(self.shared.clone()), self.opts.checks);
        st.set_stdin_size(self.opts.stdin);
        st.start(prog, &self.opts.entry)?;
        Ok(self.run_from(st))
    }

    /// Runs from `st` (a state in the entry function, its loop counts zero) and returns the formulas.
    pub fn run_from(mut self, st: State<Guarded>) -> Formulas {
        let start = Instant::now();
        let mut first = Live {
            counts: vec![vec![
                0;
                self.loops[st.frames()[0].func.0 as usize].loops.len()
            ]],
            st,
            key: Vec::new(),
        };
        first.key = self.key(&first);
        let mut live = vec![first];
        while !live.is_empty() {
            if self.opts.max_time.is_some_and(|t| start.elapsed() >= t) {
                for l in live.drain(..) {
                    self.out
                        .incomplete
                        .push(("the time limit was reached".into(), l.st.dom.guard));
                }
                break;
            }
            let i = (0..live.len())
                .min_by(|&a, &b| live[a].key.cmp(&live[b].key))
                .expect("a state");
            let l = live.swap_remove(i);
            if self.tail.as_ref().is_some_and(|t| t.holds(&l.st)) {
                self.out.sliced += 1;
                continue;
            }
            for s in self.accelerated(&l) {
                self.insert(&mut live, s);
            }
            for (s, next) in self.advance(l) {
                match next {
                    Next::Running => self.insert(&mut live, s),
                    Next::Ended(e) => self.record_end(s, e),
                    Next::Bounded => {}
                    Next::Captured => {
                        if !s.st.dom.guard.is_false() {
                            self.out.captured.push(s.st)
                        }
                    }
                }
            }
        }
        self.out
    }

    /// The schedule's key of a state: per frame, its function, then for each loop around the block
    /// (outermost first) the header's position in reverse post-order and the iteration, then the block's
    /// position and the instruction (of a caller: the call's, which its `inst` is one past). It is the
    /// position in the unwound program's topological order: every step increases it, and a block after a
    /// loop comes after every iteration of it, so the runs that leave the loop at different iterations
    /// meet (and are joined) there.
    fn key(&self, l: &Live) -> Vec<u32> {
        let mut k = Vec::new();
        if let Some(i) = self.separate {
            k.push(
                l.counts
                    .first()
                    .and_then(|c| c.get(i))
                    .copied()
                    .unwrap_or(0),
            );
        }
        let top = l.st.frames().len().saturating_sub(1);
        for (i, (f, c)) in l.st.frames().iter().zip(&l.counts).enumerate() {
            let ls = &self.loops[f.func.0 as usize];
            k.push(f.func.0);
            for &j in &ls.nest[f.block.0 as usize] {
                k.push(ls.rpo[ls.loops[j].header as usize]);
                k.push(c[j]);
            }
            k.push(ls.rpo[f.block.0 as usize]);
            k.push(if i == top {
                f.inst
            } else {
                f.inst.saturating_sub(1)
            });
        }
        k
    }

    /// Adds a running state to the work list, joined with one already at its point when possible.
    fn insert(&mut self, live: &mut Vec<Live>, mut s: Live) {
        if s.st.dom.guard.is_false() {
            return;
        }
        s.key = self.key(&s);
        let joins = self.joins;
        for l in live.iter_mut() {
            if joins && l.key == s.key && join(self.prog, &mut l.st, &s.st) {
                self.out.joins += 1;
                return;
            }
        }
        live.push(s);
    }

    /// The accelerated transitions of `l` when it has just arrived at the head of a loop of the entry
    /// function that may still start an iteration.
    fn accelerated(&mut self, l: &Live) -> Vec<Live> {
        if !self.accelerate || l.st.frames().len() != 1 {
            return Vec::new();
        }
        let f = &l.st.frames()[0];
        let (func, block) = (f.func.0, f.block.0);
        let Some(i) = self.loops[func as usize].header_of[block as usize] else {
            return Vec::new();
        };
        if f.inst != 0 || l.counts[0][i] >= self.bounds[func as usize][i] {
            return Vec::new();
        }
        let mut opts = self.opts.clone();
        opts.accelerate = false;
        let states = crate::accelerate::accelerated(self.prog, &opts, &self.shared, &l.st, func, i);
        self.out.accelerated += states.len() as u64;
        states
            .into_iter()
            .map(|st| {
                let mut counts = l.counts.clone();
                counts[0][i] += 1;
                Live {
                    st,
                    counts,
                    key: Vec::new(),
                }
            })
            .collect()
    }

    fn record_end(&mut self, s: Live, end: End) {
        let guard = s.st.dom.guard.clone();
        if guard.is_false() {
            return;
        }
        match end {
            End::Exit(_)
            | End::Halt(Halt::AssumptionViolated(_))
            | End::Halt(Halt::SilentExit(_)) => {}
            End::Bug(bug) => self.out.errors.push(ErrorRecord {
                bug,
                guard,
                events: s.st.dom.events,
                entry_counts: s.counts.first().cloned().unwrap_or_default(),
            }),
            End::Halt(Halt::Limit(why)) => self.out.incomplete.push((why, guard)),
            End::Halt(Halt::StackLimit(loc)) => self.out.incomplete.push((
                format!(
                    "stack frame limit reached ({}:{} in {})",
                    loc.file, loc.line, loc.function
                ),
                guard,
            )),
            End::Halt(Halt::Unsupported { what, loc }) => self.out.incomplete.push((
                format!(
                    "unsupported: {what} ({}:{} in {})",
                    loc.file, loc.line, loc.function
                ),
                guard,
            )),
        }
    }

    /// Runs `l` to its next point of interest: the plain instructions of its block in one batch, then one
    /// step, rebuilding from a snapshot the siblings that step asked for. Each result comes with its end.
    fn advance(&mut self, mut l: Live) -> Vec<(Live, Next)> {
        let prog = self.prog;
        let (ran, r) =
            l.st.run_in_block(prog, u64::MAX, |st, _, inst| plain(st, prog, inst));
        self.out.steps += ran;
        if let Err(e) = r {
            return vec![(l, Next::Ended(e))];
        }
        let snapshot = l.clone();
        let before = Before::of(&l.st, prog);
        let mut out = Vec::new();
        l.st.dom.begin_step();
        let r = l.st.step(prog);
        let mut work = l.st.dom.end_step();
        out.push(self.after(l, before, r));
        while let Some(answers) = work.pop() {
            let mut s = snapshot.clone();
            s.st.dom.begin_step();
            s.st.dom.force(answers);
            let r = s.st.step(prog);
            work.extend(s.st.dom.end_step());
            out.push(self.after(s, before, r));
        }
        self.out.steps += out.len() as u64;
        out
    }

    /// Accounts for a step of `l` from `before`: its end, or the loop and call it entered (which may reach
    /// a bound: the state then ends in the unwinding assertion).
    fn after(&mut self, mut l: Live, before: Before, r: Result<(), End>) -> (Live, Next) {
        if let Some(why) = l.st.dom.killed.take() {
            return (l, Next::Ended(End::Halt(Halt::Limit(why))));
        }
        if let Err(e) = r {
            return (l, Next::Ended(e));
        }
        let depth = l.st.frames().len();
        if depth > before.depth {
            let f = l.st.frame().expect("a frame").func;
            l.counts.push(vec![0; self.loops[f.0 as usize].loops.len()]);
            let active = l.st.frames().iter().filter(|x| x.func == f).count() as u32;
            if active > self.opts.unwind + 1 {
                if self.abstracted.as_ref().is_some_and(|p| p[f.0 as usize]) {
                    if let Some(l) = self.abstract_call(l.clone()) {
                        return (l, Next::Running);
                    }
                }
                let line = self.prog.module().func(f).loc.line;
                return self.bound_reached(l, f.0, line);
            }
        } else if depth < before.depth {
            l.counts.truncate(depth);
        } else if before.at_terminator {
            let f = l.st.frame().expect("a frame");
            let (func, to) = (f.func.0, f.block.0);
            if let Some(line) = self.enter_edge(&mut l, func, before.block, to) {
                return self.bound_reached(l, func, line);
            }
            if self.capture_headers
                && depth == 1
                && self.loops[func as usize].header_of[to as usize].is_some()
            {
                return (l, Next::Captured);
            }
            if let Some(c) = self.capture {
                let ls = &self.loops[func as usize];
                if depth == 1
                    && ls.header_of[to as usize] == Some(c.index)
                    && ls.retreating(before.block, to) == c.back_edge
                {
                    return (l, Next::Captured);
                }
            }
        }
        (l, Next::Running)
    }

    /// Counts the edge `from → to` of `func` in the top frame; the header's line when it reaches a bound.
    fn enter_edge(&self, l: &mut Live, func: u32, from: u32, to: u32) -> Option<u32> {
        let ls = &self.loops[func as usize];
        let counts = l.counts.last_mut().expect("counts per frame");
        if ls.retreating(from, to) {
            let i = ls.header_of[to as usize].expect("a retreating edge enters a header");
            counts[i] += 1;
            if counts[i] > self.bounds[func as usize][i] {
                return Some(ls.loops[i].line);
            }
        } else if let Some(i) = ls.header_of[to as usize] {
            // Entering a loop from outside starts its count again.
            counts[i] = 0;
        }
        if let Some(i) = ls.header_of[from as usize] {
            // Leaving the header into the loop starts an iteration: the K+1-th is the bound.
            if ls.loops[i].body[to as usize] && counts[i] >= self.bounds[func as usize][i] {
                return Some(ls.loops[i].line);
            }
        }
        None
    }

    /// `l` just after a call, with the call undone and its result a fresh value (`None` when the result
    /// is not a scalar).
    fn abstract_call(&mut self, mut l: Live) -> Option<Live> {
        let callee = l.st.take_frame()?;
        l.counts.pop();
        if let Some(dst) = callee.ret_dst {
            let depth = l.st.frames().len().checked_sub(1)?;
            let body = self.prog.module().func(l.st.frame()?.func).body.as_ref()?;
            let w = self.prog.width(body.slot_types[dst.0 as usize])?;
            let k = self.shared.borrow_mut().fresh();
            let v = Term::var(&format!("bmc_rec{k}"), symex_expr::Sort::bv(w));
            l.st.regs_mut(depth)?[dst.0 as usize] = symex_explore::symbolic::SymVal::from_term(v);
        }
        Some(l)
    }

    fn bound_reached(&mut self, l: Live, func: u32, line: u32) -> (Live, Next) {
        let guard = l.st.dom.guard.clone();
        if !guard.is_false() {
            self.out.bounds.push(BoundReached {
                function: self.prog.module().functions[func as usize].name.to_string(),
                line,
                guard,
            });
        }
        (l, Next::Bounded)
    }
}

/// What became of a state after a step.
enum Next {
    Running,
    Ended(End),
    /// It reached a bound (recorded in the unwinding assertion) and goes no further.
    Bounded,
    /// It reached the [`Capture`] point.
    Captured,
}

/// Where a state was before a step.
#[derive(Clone, Copy)]
struct Before {
    depth: usize,
    block: u32,
    at_terminator: bool,
}

impl Before {
    fn of(st: &State<Guarded>, prog: &Program) -> Before {
        match st.frame() {
            None => Before {
                depth: 0,
                block: 0,
                at_terminator: false,
            },
            Some(f) => {
                Before {
                    depth: st.frames().len(),
                    block: f.block.0,
                    at_terminator: prog.module().func(f.func).body.as_ref().is_some_and(|b| {
                        f.inst as usize >= b.blocks[f.block.0 as usize].insts.len()
                    }),
                }
            }
        }
    }
}

fn is_const(st: &State<Guarded>, op: Operand) -> bool {
    match op {
        Operand::Const(_) => true,
        Operand::Slot(s) => st
            .current_regs()
            .get(s.0 as usize)
            .is_some_and(|v| v.as_const().is_some()),
    }
}

/// Whether `inst` decides nothing (no snapshot needed): arithmetic that cannot trap, comparisons,
/// casts, and accesses through a constant pointer.
fn plain(st: &State<Guarded>, prog: &Program, inst: &Inst) -> bool {
    use symex_ir::BinOp as B;
    match inst {
        Inst::Bin { op, flags, .. } => match op {
            B::UDiv | B::SDiv | B::URem | B::SRem => false,
            B::Add | B::Sub | B::Mul => !(st.checks.overflow && flags.nsw()),
            B::Shl | B::LShr | B::AShr => !st.checks.overshift,
            _ => true,
        },
        Inst::ICmp { .. }
        | Inst::Cast { .. }
        | Inst::Copy { .. }
        | Inst::Freeze { .. }
        | Inst::ExtractValue { .. }
        | Inst::InsertValue { .. } => true,
        Inst::Gep { .. } => prog.addr.pointer_bits == 64,
        Inst::Load { ptr, .. } | Inst::Store { ptr, .. } => is_const(st, *ptr),
        _ => false,
    }
}
