//! The executor: runs symbolic states with the reference semantics, builds the siblings the symbolic
//! domain asks for, applies the limits, and hands every finished path (with its test) to the caller.

use crate::parallel::{Share, WorkItem, WorkList};
use crate::partition::Partition;
use crate::searcher::{Searcher, SearcherKind};
use crate::signature::PathSignature;
use crate::symbolic::{Forced, ForkRequest, SolverCtx, Symbolic};
use crate::trace::{entered, position, run_concrete, Trace};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use symex_engine::hooks::Model as LibModel;
use symex_engine::memory::{Lookup, ObjKind};
use symex_engine::regs::RegisterFile;
use symex_engine::stack::StackFrame;
use symex_engine::{Bug, Checks, End, Halt, Program, SourceLoc, State, TestInput};
use symex_expr::{Model, Term, Value};
use symex_ir::{Inst, Intrinsic, Operand, Terminator};

/// Limits of `spec/cli.md`; a path stopped by one is counted `cut` and the exploration is not complete.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub max_time: Option<Duration>,
    /// Forks along one path.
    pub max_depth: Option<u32>,
    /// Resident memory of the process, in MiB.
    pub max_memory_mb: Option<u64>,
    /// Instructions along one path.
    pub max_instructions: Option<u64>,
    /// Instructions of the whole exploration (KLEE's `--max-instructions`): reaching it halts the
    /// exploration as `max_time` does, the states alive then handed over as halted.
    pub max_total_instructions: Option<u64>,
    /// Entries of one block along one path (loop iterations, recursion depth).
    pub max_loop_iterations: Option<u32>,
}

/// How to explore.
#[derive(Clone, Debug)]
pub struct Options {
    pub entry: String,
    pub checks: Checks,
    pub limits: Limits,
    pub searcher: SearcherKind,
    pub seed: u64,
    /// Replay every test concretely and compare block sequence and ending (`--validate-tests`).
    pub validate: bool,
    /// With `validate`: how many instructions the replays of paths that end without a violation may
    /// take beyond the exploration's own (`None`: no limit). A path that forks in every iteration of a
    /// loop leaves one exit per iteration, and replaying each from the start costs the square of the
    /// loop's length where exploring them cost its length; a violation's test is always replayed.
    pub replay_allowance: Option<u64>,
    /// Symbolic bytes standard input holds (`--stdin N`; 0: stdin is empty).
    pub stdin: usize,
    /// When the exploration halts (time limit, the user's SIGINT), hand every live state to the caller
    /// as a [`PathEnd::Halted`] path with its test (KLEE's `--dump-states-on-halt`).
    pub dump_states_on_halt: bool,
    /// Stop forking after this many forks in all (KLEE's `--max-forks`): states then follow one
    /// feasible side of each branch.
    pub max_forks: Option<u64>,
    /// `main`'s arguments after the program name, one list per initial state (KLEE's `--sym-args MIN MAX N`
    /// starts one state per count); empty: one state with `argv = {program}`.
    pub argv: Vec<Vec<ProgramArg>>,
    /// The symbolic file (KLEE's `--sym-files 1 N`: its name and size), as `symex fuzz --file`.
    pub sym_file: Option<(String, usize)>,
    /// Give every finished path its [`PathSignature`] (`--paths-out`).
    pub signatures: bool,
}

/// One argument of `main` (KLEE's POSIX runtime).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgramArg {
    /// Given on the command line.
    Concrete(Vec<u8>),
    /// Up to N symbolic bytes (`--sym-arg N`).
    Symbolic(usize),
}

impl Default for Options {
    fn default() -> Self {
        Options {
            entry: "main".into(),
            checks: Checks::default(),
            limits: Limits::default(),
            searcher: SearcherKind::Dfs,
            seed: 1,
            validate: false,
            replay_allowance: None,
            stdin: 0,
            dump_states_on_halt: false,
            max_forks: None,
            argv: Vec::new(),
            sym_file: None,
            signatures: false,
        }
    }
}

/// A live path.
pub struct PathState {
    pub st: State<Symbolic>,
    pub trace: Trace,
    /// Entries per block (only with `--max-loop-iterations`; boxed, as every waiting state carries
    /// the field).
    loop_counts: Option<Box<FxHashMap<(u32, u32), u32>>>,
    /// Whether this path entered a block no earlier step covered.
    pub new_coverage: bool,
    /// Steps since the path last covered a new block (coverage-new searcher).
    pub since_new_coverage: u64,
    /// How many bytes of the path's standard output were echoed (see [`Explorer::echo_output`]).
    echoed: usize,
}

impl PathState {
    /// A sibling of this path built from the snapshot taken before its last step, which entered
    /// `entered` (undone in the sibling's counts) and started from trace `pre_trace`.
    fn sibling(
        &self,
        st: State<Symbolic>,
        pre_trace: Trace,
        entered: Option<(u32, u32)>,
    ) -> PathState {
        let mut loop_counts = self.loop_counts.clone();
        if let (Some(c), Some(k)) = (&mut loop_counts, entered) {
            if let Some(n) = c.get_mut(&k) {
                *n -= 1;
            }
        }
        PathState {
            st,
            trace: pre_trace,
            loop_counts,
            // As KLEE's `ExecutionState::branch`: the new side has covered nothing new yet; the flag is
            // the path's own, or `--tests new-coverage` would keep every descendant of the first path.
            new_coverage: false,
            since_new_coverage: self.since_new_coverage,
            // The snapshot's bytes were echoed before the step that forked (see `run_state`).
            echoed: self.echoed,
        }
    }
}

/// How a finished path ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathEnd {
    /// A normal exit (the code of the symbolic run; the test's replay computes its own).
    Exit(i64),
    Error(Bug),
    /// Stopped by a limit or by a solver that gave no answer.
    Cut(String),
    /// Alive when the exploration halted (KLEE's early termination, `.early` files); the reason.
    Halted(String),
    /// Ended early at a call that found the stack at its frame limit (KLEE's `--max-stack-frames`:
    /// a test and a `.early` file); where the call was made.
    StackLimit(SourceLoc),
    /// The program needs something symex does not model.
    Unsupported {
        what: String,
        loc: SourceLoc,
    },
}

/// A finished path and its test.
#[derive(Clone, Debug)]
pub struct FinishedPath {
    pub end: PathEnd,
    /// The test inputs (a model of the path condition), for exits and errors.
    pub inputs: Vec<TestInput>,
    pub trace: Trace,
    /// Whether the path covered a block no earlier path covered.
    pub new_coverage: bool,
    /// When `--validate-tests` is on: what the replay of the test disagreed on, if anything.
    pub validation_error: Option<String>,
    /// The replay's ending (for the test file), when validated or computed.
    pub replay_end: Option<End>,
    /// Whether a decision of the path depended on an object's numeric address, which the model fixes:
    /// the path's ending is one possible ending, not a verdict.
    pub address_dependent: bool,
    /// The call stack where an error or halt ended the path, innermost first (empty for exits).
    pub stack: Vec<StackFrame>,
    /// The path's decisions from the root, with [`Options::signatures`].
    pub signature: Option<PathSignature>,
}

/// What the caller wants after a path finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    Stop,
}

/// Totals of an exploration.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub completed: u64,
    pub errors: u64,
    pub cut: u64,
    /// Paths whose assumptions (`__VERIFIER_assume`) have no solution: no concrete run follows them.
    pub infeasible: u64,
    /// Paths that called `klee_silent_exit` (no test, as KLEE).
    pub silent_exits: u64,
    pub unsupported: u64,
    /// Lines KLEE's intrinsics printed (`klee_warning`, `klee_print_expr`, ...), in the order the
    /// paths ended; a `klee_warning_once` line appears once.
    pub messages: Vec<String>,
    /// Every feasible path was explored to its end and nothing was approximated.
    pub complete: bool,
    /// Why it is not complete.
    pub incomplete_reasons: Vec<String>,
    pub stopped_early: bool,
    pub blocks_covered: usize,
    pub blocks_total: usize,
    /// Covered blocks, as (function, block).
    pub covered: FxHashSet<(u32, u32)>,
    pub queries: u64,
    pub solver_time: Duration,
    /// Statistics of each solver layer, outermost first.
    pub solver_layers: Vec<symex_solver::LayerStats>,
    pub time: Duration,
    pub instructions: u64,
    pub validation_failures: u64,
    /// Instructions the replays of tests ran.
    pub replayed_instructions: u64,
    /// Paths ending without a violation whose tests were not replayed ([`Options::replay_allowance`]).
    pub unreplayed: u64,
    /// States this worker took from another and rebuilt from their signatures ([`crate::parallel`]).
    pub states_taken: u64,
}

/// Progress figures for a live display.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    pub paths: u64,
    pub live: usize,
    pub blocks_covered: usize,
    pub blocks_total: usize,
    pub queries: u64,
    pub elapsed: Duration,
}

/// Steps a state runs before the searcher picks again (without a fork).
const QUANTUM: u32 = 4096;

/// Where the paths' standard output goes as they run (see [`Explorer::echo_output`]).
pub type Echo<'p> = Box<dyn FnMut(&[u8]) + 'p>;

/// The exploration of one program.
pub struct Explorer<'p> {
    prog: &'p Program,
    opts: Options,
    ctx: Rc<RefCell<SolverCtx>>,
    searcher: Searcher,
    covered: FxHashSet<(u32, u32)>,
    summary: Summary,
    incomplete: FxHashSet<String>,
    start: Instant,
    /// Halt requests made before this exploration began (see `symex_solver::halt`).
    halts_before: u64,
    /// Forks so far (for `max_forks`).
    forks: u64,
    /// The live states are being dumped after a halt.
    halting: bool,
    /// Receives the program's standard output as the paths execute it.
    echo: Option<Echo<'p>>,
    /// The work list shared with other workers, and whether this one starts the initial states.
    pool: Option<(Arc<dyn WorkList>, bool)>,
    /// `summary.instructions` when this worker last gave a state away.
    donated_at: u64,
    /// The subtrees below the top of the tree that this worker of a thread pool keeps.
    partition: Option<Partition>,
}

/// A live state as a work item another worker rebuilds: its signature (with the answers it is forced
/// to give at its next step, when it is a sibling not built yet) and its instructions so far.
fn work_item(ps: &PathState) -> Option<WorkItem> {
    Some(WorkItem {
        sig: ps.st.dom.signature_ahead()?,
        steps: ps.st.steps,
        depth: ps.st.dom.depth,
        new_coverage: ps.new_coverage,
        since_new_coverage: ps.since_new_coverage,
    })
}

/// Whether a worker that ran a state of the tree's top keeps what came of it: a path that ended, or
/// a state that reached the split depth, only when it is the worker's share.
fn keeps(p: Partition, ps: &PathState, ended: bool) -> bool {
    (!ended && p.shared(ps)) || p.owns(ps)
}

/// Whether a model constant operand or a constant register: decisions on it cannot fork.
fn is_const(st: &State<Symbolic>, op: Operand) -> bool {
    match op {
        Operand::Const(_) => true,
        Operand::Slot(s) => st
            .current_regs()
            .get(s.0 as usize)
            .is_some_and(|v| v.as_const().is_some()),
    }
}

/// Whether the next step might fork (then the executor keeps a snapshot to build siblings from).
/// Errs on the side of yes; an unforeseen fork is caught and the path cut.
fn may_fork(st: &State<Symbolic>, prog: &Program) -> bool {
    let Some(f) = st.frame() else {
        return false;
    };
    let Some(body) = prog.module().func(f.func).body.as_ref() else {
        return true;
    };
    let block = &body.blocks[f.block.0 as usize];
    let Some(inst) = block.insts.get(f.inst as usize) else {
        return match &block.term {
            Terminator::Br(_) | Terminator::Ret(_) | Terminator::Unreachable => false,
            Terminator::CondBr { cond, .. } => !is_const(st, *cond),
            Terminator::Switch(sw) => !is_const(st, sw.value),
        };
    };
    inst_may_fork(st, prog, body, inst)
}

/// Whether `inst` of `body` is a plain instruction: not a terminator or call (it stays in its block),
/// not a comparison of addresses (which may compare a freed one), and unable to fork. Such a step needs
/// none of the executor's bookkeeping (snapshot, block trace, coverage), which costs more than the
/// instruction itself in concrete stretches of a run.
fn plain(st: &State<Symbolic>, prog: &Program, body: &symex_ir::Body, inst: &Inst) -> bool {
    match inst {
        Inst::Call(_) | Inst::Intrinsic { .. } | Inst::ICmp { width: 64, .. } => false,
        _ => !inst_may_fork(st, prog, body, inst),
    }
}

/// [`may_fork`] for the instruction `inst` of `body`.
fn inst_may_fork(st: &State<Symbolic>, prog: &Program, body: &symex_ir::Body, inst: &Inst) -> bool {
    use symex_ir::BinOp as B;
    match inst {
        Inst::Bin {
            op,
            lhs,
            rhs,
            flags,
            ..
        } => match op {
            B::UDiv | B::SDiv | B::URem | B::SRem => {
                !is_const(st, *rhs) || (st.checks.overflow && !is_const(st, *lhs))
            }
            B::Add | B::Sub | B::Mul => {
                st.checks.overflow && flags.nsw() && !(is_const(st, *lhs) && is_const(st, *rhs))
            }
            B::Shl | B::LShr | B::AShr => st.checks.overshift && !is_const(st, *rhs),
            _ => false,
        },
        // On a 32-bit target a symbolic address computation asks whether it stays in its object.
        Inst::Gep { base, indices, .. } => {
            prog.addr.pointer_bits < 64
                && (!is_const(st, *base) || indices.iter().any(|ix| !is_const(st, ix.index)))
        }
        Inst::ICmp { .. }
        | Inst::Cast { .. }
        | Inst::Copy { .. }
        | Inst::Freeze { .. }
        | Inst::ExtractValue { .. }
        | Inst::InsertValue { .. } => false,
        // Lanes run through the scalar rules, the overshift check's decision with them.
        Inst::Vector(_) => st.checks.overshift,
        Inst::Select { dst, cond, .. } => {
            prog.width(body.slot_types[dst.0 as usize]).is_none() && !is_const(st, *cond)
        }
        Inst::Load { ptr, .. } | Inst::Store { ptr, .. } => !is_const(st, *ptr),
        Inst::Alloca { count, .. } => count.is_some_and(|c| !is_const(st, c)),
        Inst::Call(call) => match call.callee {
            // Entering a body decides nothing; models decide unless they only make inputs or end the run.
            symex_ir::Callee::Direct(f) => match prog.models[f.0 as usize] {
                None => false,
                Some(m) => !matches!(m, LibModel::Nondet | LibModel::Abort | LibModel::ReachError),
            },
            symex_ir::Callee::Indirect(_) => true,
        },
        Inst::Intrinsic { op, .. } => matches!(
            op,
            Intrinsic::Memcpy { .. }
                | Intrinsic::Memmove { .. }
                | Intrinsic::Memset { .. }
                | Intrinsic::VaStart
                | Intrinsic::VaCopy
                | Intrinsic::StackRestore
                | Intrinsic::LifetimeStart
                | Intrinsic::LifetimeEnd
        ),
    }
}

/// Whether the next step compares an address of a freed heap block: our allocator never reuses addresses, a
/// real one may, so the comparison's outcome is one of several and the exploration no longer covers all runs.
fn compares_dead_pointer(st: &State<Symbolic>, prog: &Program) -> bool {
    let Some(f) = st.frame() else {
        return false;
    };
    let Some(body) = prog.module().func(f.func).body.as_ref() else {
        return false;
    };
    let Some(Inst::ICmp {
        width, lhs, rhs, ..
    }) = body.blocks[f.block.0 as usize].insts.get(f.inst as usize)
    else {
        return false;
    };
    // Pointers, and integers as wide as an address (32 bits on i386).
    if *width != 64 && *width != prog.addr.pointer_bits {
        return false;
    }
    [*lhs, *rhs].iter().any(|op| {
        let Operand::Slot(s) = op else { return false };
        let Some(v) = st.current_regs()[s.0 as usize].as_const() else {
            return false;
        };
        let (id, _) = prog.addr.split(v as u64);
        matches!(st.mem.lookup(id), Lookup::Dead(ObjKind::Heap))
    })
}

/// What running a state for a while produced.
enum Ran {
    /// The state goes back to the searcher (with the siblings it forked).
    Live(Vec<Sibling>),
    /// The state finished (and maybe forked siblings in its last step).
    Done(End, Vec<Sibling>),
}

/// A sibling and, when its first step already ended it, how.
type Sibling = (PathState, Option<End>);

/// The value of an input byte: a variable, or an element of a large input's array.
fn input_byte(model: &Model, b: &Term) -> u8 {
    if b.as_var().is_some() {
        return value_byte(model.get(b));
    }
    value_byte(model.eval(b).ok().as_ref())
}

fn value_byte(v: Option<&Value>) -> u8 {
    match v {
        Some(Value::Bv { value, .. }) => *value as u8,
        _ => 0,
    }
}

impl<'p> Explorer<'p> {
    pub fn new(prog: &'p Program, opts: Options, ctx: Rc<RefCell<SolverCtx>>) -> Explorer<'p> {
        let searcher = Searcher::new(opts.searcher, opts.seed);
        Explorer {
            prog,
            opts,
            ctx,
            searcher,
            covered: FxHashSet::default(),
            summary: Summary::default(),
            incomplete: FxHashSet::default(),
            start: Instant::now(),
            halts_before: symex_solver::halt::requests(),
            forks: 0,
            halting: false,
            echo: None,
            pool: None,
            donated_at: 0,
            partition: None,
        }
    }

    /// Makes this explorer a worker of a parallel exploration: it takes states from `pool` when its
    /// own run out and gives states to it when another worker waits; only the `first` worker starts
    /// the initial states.
    pub fn in_pool(mut self, pool: Arc<dyn WorkList>, first: bool) -> Self {
        self.pool = Some((pool, first));
        self
    }

    /// Makes this worker explore the top of the tree with the others and keep only its share of the
    /// subtrees below (see [`crate::partition`]); every such worker starts the initial states.
    pub fn partitioned(mut self, partition: Partition) -> Self {
        self.partition = Some(partition);
        self
    }

    /// The next state to run: the searcher's, else one taken from the pool (rebuilt from its signature).
    fn next_state(&mut self) -> Option<PathState> {
        if let Some(ps) = self.searcher.pop() {
            return Some(ps);
        }
        let pool = self.pool.as_ref()?.0.clone();
        while let Some(item) = pool.take(&mut self.covered) {
            match self.rebuild(&item.sig, Some(item.steps)) {
                Ok(mut ps) => {
                    self.summary.states_taken += 1;
                    ps.st.dom.depth = item.depth;
                    ps.new_coverage = item.new_coverage;
                    ps.since_new_coverage = item.since_new_coverage;
                    return Some(ps);
                }
                // Not expected: the signature came from this program. The path is lost, and says so.
                Err(why) => {
                    self.summary.cut += 1;
                    self.incomplete.insert(why);
                }
            }
        }
        None
    }

    /// Gives the oldest live state (below the tree's top, which every worker of a partition explores)
    /// to the pool when another worker waits for work and this one has more than one. A sibling whose first step is still to run (forced answers waiting) stays.
    ///
    /// Rebuilding a state re-runs its instructions from the root, so a state is given only when this
    /// worker ran at least as many instructions since its last gift: the rebuilds cost at most the
    /// exploration itself. (A loop that forks in every iteration leaves one short-lived exit state per
    /// iteration; giving each away would rebuild the whole loop each time, quadratic in its length.)
    fn donate(&mut self) {
        let Some((pool, _)) = &self.pool else { return };
        // One live state given away would only move the work, not split it.
        let share = pool.share();
        if share == Share::Keep || self.searcher.len() < 2 {
            return;
        }
        let earned = self.summary.instructions - self.donated_at;
        if share == Share::All {
            return self.checkpoint(earned);
        }
        let Some(ps) = self.searcher.take_oldest(|s| {
            s.st.dom.rebuilt()
                && s.st.steps <= earned
                && !self.partition.is_some_and(|p| p.shared(s))
        }) else {
            return;
        };
        self.donated_at = self.summary.instructions;
        match work_item(&ps) {
            Some(item) => pool.give(vec![item], &self.covered),
            None => self.searcher.push(ps),
        }
    }

    /// Gives every live state away (ending the work item this worker holds) when each has a signature
    /// and rebuilding them all costs no more than this worker ran since its last gift.
    fn checkpoint(&mut self, earned: u64) {
        let Some((pool, _)) = &self.pool else { return };
        let mut items = Vec::with_capacity(self.searcher.len());
        let mut cost = 0u64;
        for ps in self.searcher.iter() {
            let Some(item) = work_item(ps) else { return };
            cost += item.steps;
            items.push(item);
        }
        if cost > earned {
            return;
        }
        let pool = pool.clone();
        self.searcher.drain();
        self.donated_at = self.summary.instructions;
        pool.give(items, &self.covered);
    }

    /// Hands the bytes each path writes to its standard output to `echo` as the path executes them, as
    /// KLEE prints them: a path forked after some output starts from the bytes already echoed, so each
    /// byte is echoed once per path that executes it.
    pub fn echo_output(mut self, echo: Echo<'p>) -> Self {
        self.echo = Some(echo);
        self
    }

    /// Echoes the bytes `ps` wrote since its last echo.
    fn echo(&mut self, ps: &mut PathState) {
        let Some(echo) = &mut self.echo else { return };
        // Every worker runs the tree's top alike: the first one echoes it.
        if self
            .partition
            .is_some_and(|p| p.worker != 0 && p.shared(ps))
        {
            ps.echoed = ps.st.stdout().len();
            return;
        }
        if let Some(new) = ps.st.stdout().get(ps.echoed..).filter(|b| !b.is_empty()) {
            echo(new);
        }
        ps.echoed = ps.st.stdout().len();
    }

    /// Explores the program, calling `on_path` for each finished path and `on_progress` now and then.
    /// Returns the totals; `Err` when the program cannot start (no entry function).
    pub fn run(
        mut self,
        on_path: &mut dyn FnMut(&FinishedPath) -> Control,
        on_progress: &mut dyn FnMut(&Progress),
    ) -> Result<Summary, End> {
        let prog = self.prog;
        self.ctx.borrow_mut().deadline = self.opts.limits.max_time.map(|t| self.start + t);
        let mut initial = Vec::new();
        for root in 0..self.roots() {
            initial.push(self.initial_state(root as usize)?);
        }
        // The engine honours the same limits inside a step (a large copy), on this thread, until the
        // exploration ends.
        let outer_budget = symex_engine::budget::current();
        symex_engine::budget::set(symex_engine::budget::Budget {
            max_memory_mb: self.opts.limits.max_memory_mb,
            deadline: self.opts.limits.max_time.map(|t| self.start + t),
        });
        if let Some(f) = prog.module().function_by_name(&self.opts.entry) {
            self.covered.insert((f.0, 0));
        }
        let starts = self.pool.as_ref().is_none_or(|(_, first)| *first);
        if starts || self.partition.is_some() {
            for st in initial {
                let ps = self.path_state(st);
                self.searcher.push(ps);
            }
        }
        let mut last_progress = Instant::now();
        let mut stop_reason = None;
        while let Some(mut ps) = self.next_state() {
            if self.pool.as_ref().is_some_and(|(p, _)| p.stopped()) {
                self.summary.stopped_early = true;
                self.searcher.push(ps);
                break;
            }
            if let Some(r) = self.global_limit() {
                if let Some((pool, _)) = &self.pool {
                    pool.halt_at_limit(r.clone());
                }
                stop_reason = Some(r);
                self.searcher.push(ps);
                break;
            }
            if let Some(n) = self.opts.max_forks.filter(|&n| self.forks >= n) {
                ps.st.dom.stop_forking(format!(
                    "the fork limit of {n} was reached: later branches followed one feasible side"
                ));
            }
            let top = self.partition.filter(|p| p.shared(&ps));
            let ran = self.run_state(&mut ps);
            self.echo(&mut ps);
            let (end, mut siblings) = match ran {
                Ran::Live(sib) => (None, sib),
                Ran::Done(e, sib) => (Some(e), sib),
            };
            self.forks += siblings.len() as u64;
            let mut stop = false;
            if let Some(p) = top {
                siblings.retain(|(s, end)| keeps(p, s, end.is_some()));
            }
            for s in siblings {
                stop |= self.settle(s, on_path) == Control::Stop;
            }
            match end {
                _ if top.is_some_and(|p| !keeps(p, &ps, end.is_some())) => {}
                None => self.searcher.push(ps),
                Some(e) => stop |= self.finish(ps, e, on_path) == Control::Stop,
            }
            if stop {
                self.summary.stopped_early = true;
                break;
            }
            self.donate();
            if last_progress.elapsed() >= Duration::from_millis(100) {
                last_progress = Instant::now();
                on_progress(&self.progress());
            }
        }
        symex_engine::budget::set(outer_budget);
        let mut live = self.searcher.drain();
        if let Some(p) = self.partition {
            // The top of the tree is every worker's: one of them cuts (or dumps) each of its states.
            live.retain(|s| !p.shared(s) || p.owns(s));
        }
        if let Some((pool, _)) = self.pool.clone().filter(|_| !live.is_empty()) {
            if pool.hand_back(live.iter().map(work_item).collect(), &self.covered) {
                live.clear();
            }
        }
        let live_left = !live.is_empty();
        if live_left {
            let why = stop_reason.unwrap_or_else(|| "exploration stopped".into());
            if self.opts.dump_states_on_halt {
                self.dump_states(live, &why, on_path);
            } else if !self.summary.stopped_early {
                self.incomplete.insert(why);
                self.summary.cut += live.len() as u64;
            }
        }
        on_progress(&self.progress());
        let mut s = self.summary;
        let ctx = self.ctx.borrow();
        s.queries = ctx.queries;
        s.solver_time = ctx.time;
        s.solver_layers = ctx.solver.stats();
        s.time = self.start.elapsed();
        s.blocks_total = prog
            .module()
            .functions
            .iter()
            .map(|f| f.body.as_ref().map_or(0, |b| b.blocks.len()))
            .sum();
        s.blocks_covered = self.covered.len();
        s.covered = self.covered;
        let mut reasons: Vec<String> = self.incomplete.into_iter().collect();
        reasons.sort();
        s.complete = reasons.is_empty()
            && s.cut == 0
            && s.unsupported == 0
            && !s.stopped_early
            && !live_left;
        s.incomplete_reasons = reasons;
        Ok(s)
    }

    /// The number of initial states (one per `--sym-args` count).
    fn roots(&self) -> u32 {
        self.opts.argv.len().max(1) as u32
    }

    /// A path at the start of state `st`.
    fn path_state(&self, st: State<Symbolic>) -> PathState {
        PathState {
            st,
            trace: Trace::start(self.prog, &self.opts.entry),
            loop_counts: self.opts.limits.max_loop_iterations.map(|_| Box::default()),
            new_coverage: true,
            since_new_coverage: 0,
            echoed: 0,
        }
    }

    /// Rebuilds the live path of signature `sig` on this program: its initial state run with the
    /// signature's answers forced, up to its `steps`-th instruction (`None`: up to the step of its last
    /// decision). No solver query decides a branch on the way, and no sibling is forked: the siblings of
    /// the prefix are other paths. The instructions are not counted again in the summary.
    pub fn rebuild(
        &mut self,
        sig: &PathSignature,
        steps: Option<u64>,
    ) -> Result<PathState, String> {
        if sig.root >= self.roots() {
            return Err(format!(
                "path signature {sig}: no initial state {}",
                sig.root
            ));
        }
        let st = self
            .initial_state(sig.root as usize)
            .map_err(|e| format!("path signature {sig}: the program does not start ({e:?})"))?;
        let mut ps = self.path_state(st);
        // A rebuilt path is named by its signature: it keeps its trail.
        ps.st.dom.trail = crate::signature::Trail::new(sig.root);
        ps.st.dom.replay(&sig.answers);
        let diverged = |why: &str| format!("path signature {sig}: the replay {why}");
        loop {
            let pending = ps.st.dom.replay_pending();
            let done = match steps {
                Some(n) => ps.st.steps >= n,
                None => !pending,
            };
            if done {
                break;
            }
            let before = position(&ps.st, self.prog);
            ps.st.dom.begin_step();
            let r = ps.st.step(self.prog);
            self.after_step(&mut ps, before);
            if !ps.st.dom.end_step().is_empty() {
                return Err(diverged("reached a decision the signature does not answer"));
            }
            if let Some(why) = ps.st.dom.take_killed() {
                return Err(diverged(&format!("was cut ({why})")));
            }
            if r.is_err() {
                return Err(diverged(
                    match ps.st.dom.replay_pending() || steps.is_some() {
                        true => "ended the path before its last step",
                        false => {
                            "ended the path at its last decision: nothing of it is left to explore"
                        }
                    },
                ));
            }
        }
        // Answers left at the given step belong to that step: the path is a sibling not built yet.
        if steps.is_none() && ps.st.dom.replay_pending() {
            return Err(diverged("ended with answers left over"));
        }
        // The path's lines and output were taken where it ran first.
        ps.st.take_messages();
        ps.echoed = ps.st.stdout().len();
        Ok(ps)
    }

    /// Initial state `root`: at the entry with its arguments after the program name, the symbolic file
    /// and stdin. The inputs are asked in the order replay expects: arguments, file, stdin. A concrete
    /// argument is an input too (so that its test carries it) whose bytes the path condition fixes and
    /// the state holds as constants.
    fn initial_state(&self, root: usize) -> Result<State<Symbolic>, End> {
        let prog = self.prog;
        let args: &[ProgramArg] = self.opts.argv.get(root).map_or(&[], Vec::as_slice);
        let mut st = State::new(prog, Symbolic::new(self.ctx.clone()), self.opts.checks);
        // A path's answers are kept only where its signature is asked for: by another worker
        // (`donate`) or for `--paths-out`.
        st.dom.trail = match self.pool.is_some() || self.opts.signatures {
            true => crate::signature::Trail::new(root as u32),
            false => crate::signature::Trail::unrecorded(root as u32),
        };
        let lens: Vec<usize> = args
            .iter()
            .map(|a| match a {
                ProgramArg::Concrete(b) => b.len(),
                ProgramArg::Symbolic(n) => *n,
            })
            .collect();
        if !lens.is_empty() {
            st.set_sym_args(&lens);
        }
        for (k, a) in args.iter().enumerate() {
            if let ProgramArg::Concrete(b) = a {
                st.dom.pin_input(k, b);
                st.concretise_arg(k, b);
            }
        }
        if let Some((path, n)) = &self.opts.sym_file {
            st.set_sym_file(path, *n);
        }
        st.set_stdin_size(self.opts.stdin);
        st.start(prog, &self.opts.entry)?;
        Ok(st)
    }

    fn progress(&self) -> Progress {
        Progress {
            paths: self.summary.completed + self.summary.errors + self.summary.cut,
            live: self.searcher.len(),
            blocks_covered: self.covered.len(),
            blocks_total: 0,
            queries: self.ctx.borrow().queries,
            elapsed: self.start.elapsed(),
        }
    }

    /// A limit that ends the whole exploration.
    fn global_limit(&self) -> Option<String> {
        if symex_solver::halt::requests() != self.halts_before {
            return Some("interrupted by the user (SIGINT)".into());
        }
        if let Some(why) = self.pool.as_ref().and_then(|(p, _)| p.limit()) {
            return Some(why);
        }
        if let Some(t) = self.opts.limits.max_time {
            if self.start.elapsed() >= t {
                return Some(format!("time limit of {:.1} s reached", t.as_secs_f64()));
            }
        }
        if let Some(n) = self.opts.limits.max_total_instructions {
            if self.summary.instructions >= n {
                return Some(format!("instruction limit of {n} reached"));
            }
        }
        // The memory limit (measured every few milliseconds: `check` always has one).
        symex_engine::budget::poll()
    }

    /// Hands each state alive at a halt to the caller with a test for the path it followed so far (KLEE's
    /// `--dump-states-on-halt`). The limits no longer apply: the tests need the solver.
    fn dump_states(
        &mut self,
        live: Vec<PathState>,
        why: &str,
        on_path: &mut dyn FnMut(&FinishedPath) -> Control,
    ) {
        self.ctx.borrow_mut().deadline = None;
        self.halting = true;
        for ps in live {
            if self.finish(ps, End::Halt(Halt::Limit(why.into())), on_path) == Control::Stop {
                break;
            }
        }
    }

    /// A sibling or a state that finished in its first step.
    fn settle(
        &mut self,
        s: (PathState, Option<End>),
        on_path: &mut dyn FnMut(&FinishedPath) -> Control,
    ) -> Control {
        let (ps, end) = s;
        match end {
            None => {
                self.searcher.push(ps);
                Control::Continue
            }
            Some(e) => self.finish(ps, e, on_path),
        }
    }

    /// Moves the lines the path's intrinsics printed into the summary as they are printed, so that a
    /// line printed before a fork appears once (a `klee_warning_once` line once per run).
    fn take_messages(&mut self, st: &mut State<Symbolic>) {
        // Called after every batch of steps: nearly always nothing to move.
        if st.messages().is_empty() && !st.dom.has_array_warnings() {
            return;
        }
        let arrays = st.dom.take_array_warnings().into_iter().map(|l| (l, true));
        for (line, once) in st.take_messages().into_iter().chain(arrays) {
            if !(once && self.summary.messages.contains(&line)) {
                self.summary.messages.push(line);
            }
        }
    }

    /// Runs `ps` until it forks, ends, or used its quantum.
    fn run_state(&mut self, ps: &mut PathState) -> Ran {
        let prog = self.prog;
        for _ in 0..QUANTUM {
            if let Some(end) = self.path_limit(ps) {
                return Ran::Done(end, Vec::new());
            }
            let left = self.instructions_left();
            if left == 0 {
                // The state stays alive: the exploration halts before its next step.
                return Ran::Live(Vec::new());
            }
            if ps.st.dom.rebuilt() {
                let budget = self
                    .opts
                    .limits
                    .max_instructions
                    .map_or(u64::MAX, |n| n.saturating_sub(ps.st.steps))
                    .min(left);
                let (ran, r) = ps.st.run_in_block(prog, budget, |st, body, inst| {
                    st.dom.killed().is_none() && !st.dom.forked() && plain(st, prog, body, inst)
                });
                self.summary.instructions += ran;
                ps.since_new_coverage += ran;
                self.take_messages(&mut ps.st);
                if ps.st.dom.forked() {
                    ps.st
                        .dom
                        .set_killed("internal: a step forked that was not expected to".into());
                }
                if let Some(why) = ps.st.dom.take_killed() {
                    return Ran::Done(End::Halt(Halt::Limit(why)), Vec::new());
                }
                if let Err(e) = r {
                    return Ran::Done(e, Vec::new());
                }
                // The batch stopped before a step that needs the bookkeeping (or at the budget).
                if ran > 0 {
                    if let Some(end) = self.path_limit(ps) {
                        return Ran::Done(end, Vec::new());
                    }
                    if self.instructions_left() == 0 {
                        return Ran::Live(Vec::new());
                    }
                }
            }
            if compares_dead_pointer(&ps.st, prog) {
                ps.st.dom.note_incomplete(
                    "the program compares a pointer to a freed heap block (a real allocator may reuse its address)"
                        .into(),
                );
            }
            // A sibling starts from the snapshot with its bytes echoed.
            self.echo(ps);
            let snapshot = may_fork(&ps.st, prog).then(|| ps.st.clone());
            let before = position(&ps.st, prog);
            let pre_trace = ps.trace;
            ps.st.dom.begin_step();
            let r = ps.st.step(prog);
            self.summary.instructions += 1;
            self.take_messages(&mut ps.st);
            let entered = self.after_step(ps, before);
            let forks = ps.st.dom.end_step();
            let mut siblings = Vec::new();
            if !forks.is_empty() {
                ps.st.dom.depth += 1;
                match snapshot {
                    Some(snap) => {
                        let base = ps.sibling(snap, pre_trace, entered);
                        siblings = self.build_siblings(&base, before, forks)
                    }
                    None => {
                        ps.st
                            .dom
                            .set_killed("internal: a step forked that was not expected to".into());
                    }
                }
            }
            if let Some(why) = ps.st.dom.take_killed() {
                return Ran::Done(End::Halt(Halt::Limit(why)), siblings);
            }
            if let Err(e) = r {
                return Ran::Done(e, siblings);
            }
            if !siblings.is_empty() {
                return Ran::Live(siblings);
            }
        }
        Ran::Live(Vec::new())
    }

    /// Re-runs the step from the snapshot `base` once per fork request, forcing its answers; the re-runs
    /// may ask for further siblings (later decisions of the same step).
    fn build_siblings(
        &mut self,
        base: &PathState,
        before: Option<crate::trace::Position>,
        forks: Vec<ForkRequest>,
    ) -> Vec<Sibling> {
        let prog = self.prog;
        let mut work = forks;
        let mut out = Vec::new();
        while let Some(f) = work.pop() {
            let mut ps = base.sibling(base.st.clone(), base.trace, None);
            ps.st.dom.begin_step();
            let deferred = matches!(f.answers.last(), Some(Forced::Above(_)));
            ps.st.dom.force(f.answers, f.model);
            if deferred {
                // A sibling of an unbounded enumeration (allocation sizes) is built when the searcher
                // picks it: its step then runs with the answers forced, and asks for the next one.
                out.push((ps, None));
                continue;
            }
            let r = ps.st.step(prog);
            self.summary.instructions += 1;
            // The step's lines were taken from the path it forked from.
            ps.st.take_messages();
            self.after_step(&mut ps, before);
            work.extend(ps.st.dom.end_step());
            let end = match (ps.st.dom.take_killed(), r) {
                (Some(why), _) => Some(End::Halt(Halt::Limit(why))),
                (None, Err(e)) => Some(e),
                (None, Ok(())) => None,
            };
            out.push((ps, end));
        }
        out
    }

    /// Records the block a step entered (trace, coverage, loop counts) and returns it.
    fn after_step(
        &mut self,
        ps: &mut PathState,
        before: Option<crate::trace::Position>,
    ) -> Option<(u32, u32)> {
        ps.since_new_coverage += 1;
        let (f, b) = entered(before, &ps.st)?;
        ps.trace.push(f, b);
        if self.covered.insert((f, b)) {
            ps.new_coverage = true;
            ps.since_new_coverage = 0;
        }
        if let Some(counts) = &mut ps.loop_counts {
            *counts.entry((f, b)).or_insert(0) += 1;
        }
        Some((f, b))
    }

    /// Instructions the whole exploration may still execute (KLEE's `--max-instructions`).
    fn instructions_left(&self) -> u64 {
        self.opts
            .limits
            .max_total_instructions
            .map_or(u64::MAX, |n| n.saturating_sub(self.summary.instructions))
    }

    /// A limit that stops this path.
    fn path_limit(&self, ps: &PathState) -> Option<End> {
        let l = &self.opts.limits;
        let cut = |msg: String| Some(End::Halt(Halt::Limit(msg)));
        if let Some(n) = l.max_instructions {
            if ps.st.steps >= n {
                return cut(format!("instruction limit of {n} reached on a path"));
            }
        }
        if let Some(d) = l.max_depth {
            if ps.st.dom.depth > d {
                return cut(format!("depth limit of {d} forks reached"));
            }
        }
        if let (Some(k), Some(counts)) = (l.max_loop_iterations, &ps.loop_counts) {
            if counts.values().any(|&c| c > k) {
                return cut(format!("loop iteration limit of {k} reached"));
            }
        }
        None
    }

    /// Accounts for a finished path, builds its test and hands it to the caller.
    fn finish(
        &mut self,
        mut ps: PathState,
        end: End,
        on_path: &mut dyn FnMut(&FinishedPath) -> Control,
    ) -> Control {
        self.echo(&mut ps);
        for why in ps.st.dom.take_incomplete() {
            self.incomplete.insert(why);
        }
        self.take_messages(&mut ps.st);
        let halted = self.halting;
        let end = match end {
            End::Halt(Halt::SilentExit(_)) => {
                self.summary.silent_exits += 1;
                return Control::Continue;
            }
            End::Exit(c) => PathEnd::Exit(c),
            End::Bug(b) => PathEnd::Error(b),
            End::Halt(Halt::AssumptionViolated(_)) => {
                self.summary.infeasible += 1;
                return Control::Continue;
            }
            End::Halt(Halt::Limit(why)) if halted => PathEnd::Halted(why),
            End::Halt(Halt::Limit(why)) => PathEnd::Cut(why),
            End::Halt(Halt::StackLimit(loc)) => PathEnd::StackLimit(loc),
            End::Halt(Halt::Unsupported { what, loc }) => PathEnd::Unsupported { what, loc },
        };
        match &end {
            PathEnd::Exit(_) => self.summary.completed += 1,
            PathEnd::Error(_) => self.summary.errors += 1,
            PathEnd::Cut(why) | PathEnd::Halted(why) => {
                self.summary.cut += 1;
                self.incomplete.insert(why.clone());
            }
            PathEnd::StackLimit(_) => {
                self.summary.cut += 1;
                self.incomplete.insert(format!(
                    "stack frame limit of {} reached on a path",
                    self.opts.checks.max_stack_frames
                ));
            }
            PathEnd::Unsupported { what, loc } => {
                self.summary.unsupported += 1;
                self.incomplete.insert(format!(
                    "a path reached something symex does not model: {what} ({}:{} in {})",
                    loc.file, loc.line, loc.function
                ));
            }
        }
        let inputs = match &end {
            PathEnd::Exit(_) | PathEnd::Error(_) | PathEnd::Halted(_) | PathEnd::StackLimit(_) => {
                self.test_inputs(&mut ps)
            }
            _ => Vec::new(),
        };
        let stack = match &end {
            PathEnd::Error(_) | PathEnd::Halted(_) | PathEnd::StackLimit(_) => {
                ps.st.stack_trace(self.prog)
            }
            _ => Vec::new(),
        };
        let killed = ps.st.dom.take_killed();
        let steps = ps.st.steps;
        let signature = self.opts.signatures.then(|| ps.st.dom.trail.signature());
        let mut path = FinishedPath {
            end,
            inputs,
            trace: ps.trace,
            new_coverage: ps.new_coverage,
            validation_error: None,
            replay_end: None,
            address_dependent: ps.st.dom.address_dependent,
            stack,
            signature,
        };
        // The state is not needed any more: its memory is free before the replay and the caller's
        // handling of the path (which may write the test).
        drop(ps.st);
        if matches!(path.end, PathEnd::Halted(_) | PathEnd::StackLimit(_)) && killed.is_some() {
            path.end = PathEnd::Cut(killed.unwrap_or_default());
        } else if matches!(path.end, PathEnd::Exit(_) | PathEnd::Error(_)) {
            if let Some(why) = killed {
                // No model: the path cannot be given a test.
                path.end = PathEnd::Cut(why);
            } else if self.opts.validate && self.replay_affordable(&path.end, steps) {
                self.summary.replayed_instructions += steps;
                self.validate(&mut path);
            }
        }
        on_path(&path)
    }

    /// The test of a finished path: each input's bytes under a model of its path condition.
    fn test_inputs(&mut self, ps: &mut PathState) -> Vec<TestInput> {
        let model: Arc<Model> = match ps.st.dom.current_model() {
            Some(m) => m,
            None => return Vec::new(),
        };
        ps.st
            .dom
            .inputs
            .iter()
            .map(|i| TestInput {
                name: i.name.clone(),
                bytes: i.bytes.iter().map(|b| input_byte(&model, b)).collect(),
            })
            .collect()
    }

    /// Whether the test of a path of `steps` instructions is replayed within
    /// [`Options::replay_allowance`] (counted in instructions, so the answer is the same on every
    /// machine). A path not replayed makes the exploration incomplete: its verdicts rest on replays.
    fn replay_affordable(&mut self, end: &PathEnd, steps: u64) -> bool {
        let Some(allowance) = self.opts.replay_allowance else {
            return true;
        };
        let limit = self.summary.instructions.saturating_add(allowance);
        if matches!(end, PathEnd::Error(_))
            || self.summary.replayed_instructions.saturating_add(steps) <= limit
        {
            return true;
        }
        self.summary.unreplayed += 1;
        self.incomplete.insert(
            "not every test was replayed: replaying them would take more instructions than exploring their paths"
                .into(),
        );
        false
    }

    /// Replays the test concretely: it must enter the same blocks and end the same way.
    fn validate(&mut self, path: &mut FinishedPath) {
        let run = run_concrete(
            self.prog,
            &path.inputs,
            &self.opts.entry,
            self.opts.checks,
            self.opts.limits.max_instructions.unwrap_or(u64::MAX),
        );
        let mut problems = Vec::new();
        if run.trace != path.trace {
            problems.push(format!(
                "the replay entered {} blocks (hash {:x}), the symbolic path {} (hash {:x})",
                run.trace.blocks, run.trace.hash, path.trace.blocks, path.trace.hash
            ));
        }
        let same_end = match (&path.end, &run.end) {
            (PathEnd::Exit(_), End::Exit(_)) => true,
            (PathEnd::Error(a), End::Bug(b)) => a.kind == b.kind && a.loc == b.loc,
            _ => false,
        };
        if !same_end {
            problems.push(format!(
                "the replay ended with {:?}, the symbolic path with {:?}",
                run.end, path.end
            ));
        }
        if !problems.is_empty() {
            self.summary.validation_failures += 1;
            path.validation_error = Some(problems.join("; "));
        }
        path.replay_end = Some(run.end);
    }
}
