//! Generational search (Godefroid, Levin, Molnar: "Automated whitebox fuzz testing", NDSS 2008; the
//! lecture's `GenerateInputs` / `ExpandExecution` / `Score`):
//!
//! ```text
//! GenerateInputs(seed): seed.bound ← 0; workList ← {seed}; Run&Check(seed)
//!   while workList ≠ ∅: input ← PickFirstItem(workList)
//!     foreach newInput ∈ ExpandExecution(input): Run&Check(newInput); Score(newInput); workList ∪= {newInput}
//! ExpandExecution(input): PC ← SymbolicExecution(input)
//!   for j ← input.bound .. |PC|−1: if PC[0..j) ∧ ¬PC[j] has a model M:
//!     newInput ← Combine(input, M); newInput.bound ← j; childInputs ∪= {newInput}
//! ```
//!
//! One concolic run is both `Run&Check` and `SymbolicExecution`, so the worker that ran an input keeps
//! its path condition and expands it without running it again. With `--jobs N`, N workers (threads) share
//! only the work list (inputs, bounds, scores), the block coverage, the inputs run and the crashes, as
//! the lecture notes; path conditions are terms of one worker's solver context, so a worker that picks
//! another's item re-runs its input to rebuild the path condition. The child of conjunct `j` has conjuncts `0..=j`
//! fixed (the prefix and the negation that made it), so it expands from `j + 1`: read literally, `bound ← j`
//! would make every child negate its own flipped conjunct again and regenerate its parent's path, and the
//! lecture's `top()` would need more than the 16 runs its table shows. Only branch conjuncts are negated;
//! concretisations and assumptions stay in every prefix. An input that was already run is not run again.

use crate::concolic::{byte_pos, Conjunct};
use crate::run::{concolic_run, ConcolicRun, RunConfig};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use symex_engine::{Bug, End, Halt, Program, TestInput};
use symex_explore::trace::Trace;
use symex_explore::SolverCtx;
use symex_expr::{Term, Value};
use symex_solver::{SatResult, Solver, SolverConfig};

/// Limits and inputs of a search.
#[derive(Clone, Debug, Default)]
pub struct FuzzOptions {
    pub run: RunConfig,
    /// Stop after this many runs.
    pub max_runs: Option<u64>,
    /// Stop after this much time.
    pub max_time: Option<Duration>,
}

/// A distinct crash: the first input that produced it.
#[derive(Clone, Debug)]
pub struct Crash {
    pub bug: Bug,
    /// The call stack (function names, outermost first).
    pub stack: Vec<String>,
    /// The input bytes (what `crashNNNNNN.bin` holds).
    pub bytes: Vec<u8>,
    /// The inputs as a test file names them.
    pub inputs: Vec<TestInput>,
    /// The run (1-based) that found it.
    pub run: u64,
    /// Time from the start of the search to the end of that run.
    pub time: Duration,
}

/// What one run did, for the caller (status line, `queue/`, crash files).
pub enum Event<'a> {
    /// A run finished; `new_blocks` of its blocks were not covered before.
    Ran {
        run: &'a ConcolicRun,
        new_blocks: usize,
    },
    /// A run ended in a bug not seen before.
    Crash(&'a Crash),
}

/// Counters of a search.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub runs: u64,
    /// Children solved (one per satisfiable negated conjunct).
    pub children: u64,
    /// Negated conjuncts the solver found unsatisfiable.
    pub unsat: u64,
    /// Negated conjuncts the solver could not decide.
    pub unknown: u64,
    /// Children identical to an input run before (not run again).
    pub duplicates: u64,
    /// Inputs run again by a worker other than the one that ran them, to rebuild their path condition
    /// in its own solver context (`--jobs`; not counted in `runs`).
    pub reruns: u64,
    /// Children whose run left the path the solver predicted for it.
    pub divergences: u64,
    /// Values concretised over all runs.
    pub concretised: u64,
    /// Runs stopped by a limit or an unsupported construct.
    pub cut: u64,
    pub solver_queries: u64,
    pub solver_time: Duration,
    /// Whether the work list ran empty (every child of every input was run).
    pub exhausted: bool,
    /// Why the search stopped early, if it did.
    pub stopped: Option<String>,
}

/// A work-list item: an input that was run, with its bound (its `Score` and age are its key in the work
/// list). Its path condition stays with the worker that ran it (its terms belong to that worker's solver
/// context): another worker that picks the item re-runs the input to rebuild it.
struct Item {
    bytes: Vec<u8>,
    bound: usize,
    /// The worker holding the path condition.
    owner: usize,
    age: u64,
}

/// Work-list key: (score, -age), so that the last entry is PickFirstItem's choice.
type Key = (usize, Reverse<u64>);

/// The search state all workers share. The lecture's note on parallel SAGE: only the work list and the
/// block coverage need sharing; the inputs run, the crash keys and the counters go with them so that
/// duplicates, crash deduplication and numbering stay global.
#[derive(Default)]
struct Shared {
    covered: FxHashSet<(u32, u32)>,
    work: BTreeMap<Key, Item>,
    seen: FxHashSet<Vec<u8>>,
    crash_keys: FxHashSet<(String, String, u32, String, Vec<String>)>,
    crashes: Vec<Crash>,
    traces: FxHashSet<Trace>,
    stats: Stats,
    next_age: u64,
    /// Workers expanding an item (their children may still refill an empty work list).
    busy: usize,
    /// The search is over (a limit, or the work list ran empty with no worker busy).
    stop: bool,
    /// (owner, age) of items a worker other than their owner took: the owner drops their path conditions.
    taken: Vec<(usize, u64)>,
}

/// One search: the shared state and what every worker reads.
struct Search<'a, 'i> {
    state: Mutex<Shared>,
    /// Signalled when an item enters the work list or a worker finishes an expansion.
    wake: Condvar,
    opts: &'a FuzzOptions,
    start: Instant,
    on: Mutex<&'a mut (dyn FnMut(Event<'_>) + Send)>,
    import: Option<Mutex<&'i mut (dyn FnMut() -> Vec<Vec<u8>> + Send)>>,
}

/// What the search allows for an input about to be run.
enum Begin {
    /// Run it as run number `n` (1-based).
    Run(u64),
    /// It was run before.
    Seen,
    /// A limit was reached or the search is over.
    Stop,
}

impl Search<'_, '_> {
    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn emit(&self, e: Event<'_>) {
        (self.on.lock().unwrap_or_else(|e| e.into_inner()))(e)
    }

    /// Whether a limit is reached; records why and ends the search.
    fn out_of_budget(&self, st: &mut Shared) -> bool {
        if let Some(m) = self.opts.max_runs {
            if st.stats.runs >= m {
                st.stats.stopped = Some(format!("run limit of {m} reached"));
                return self.end(st);
            }
        }
        if let Some(t) = self.opts.max_time {
            if self.start.elapsed() >= t {
                st.stats.stopped = Some(format!("time limit of {:.1} s reached", t.as_secs_f64()));
                return self.end(st);
            }
        }
        false
    }

    fn end(&self, st: &mut Shared) -> bool {
        st.stop = true;
        self.wake.notify_all();
        true
    }

    fn stopped(&self) -> bool {
        let mut st = self.lock();
        st.stop || self.out_of_budget(&mut st)
    }

    /// Claims a run number for `bytes` unless it was run before or a limit is reached (so that `--max-runs`
    /// holds over all workers). A child seen before counts as a duplicate.
    fn begin_run(&self, bytes: &[u8], child: bool) -> Begin {
        let mut st = self.lock();
        if st.stop || self.out_of_budget(&mut st) {
            return Begin::Stop;
        }
        if !st.seen.insert(bytes.to_vec()) {
            if child {
                st.stats.duplicates += 1;
            }
            return Begin::Seen;
        }
        st.stats.runs += 1;
        Begin::Run(st.stats.runs)
    }
}

/// One expansion under way: dropping it (also when the expansion panics) makes the worker idle again; after
/// a panic it ends the search, so that the other workers do not wait for its children forever and the
/// panic reaches the caller.
struct Expanding<'s, 'a, 'i>(&'s Search<'a, 'i>);

impl Drop for Expanding<'_, '_, '_> {
    fn drop(&mut self) {
        let mut st = self.0.lock();
        st.busy -= 1;
        if std::thread::panicking() {
            st.stop = true;
        }
        self.0.wake.notify_all();
    }
}

/// One worker: its own program (the engine's program holds thread-bound strings), solver context and
/// solver, and the path conditions of the items it put in the work list.
struct Worker<'p> {
    id: usize,
    prog: &'p Program,
    ctx: Rc<RefCell<SolverCtx>>,
    solver: Box<dyn Solver>,
    pcs: FxHashMap<u64, Vec<Conjunct>>,
}

impl<'p> Worker<'p> {
    fn new(id: usize, prog: &'p Program, solver_timeout: Option<Duration>) -> Worker<'p> {
        // The concolic domain only builds terms with this context's term builder; queries go to `solver`.
        let ctx = SolverCtx::new(SolverConfig::default().build(), None);
        let mut solver = SolverConfig::default().build();
        solver.set_timeout(solver_timeout);
        Worker {
            id,
            prog,
            ctx,
            solver,
            pcs: FxHashMap::default(),
        }
    }

    /// `PickFirstItem` and `ExpandExecution` until the search is over.
    fn work(&mut self, s: &Search<'_, '_>) {
        while let Some(item) = self.take(s) {
            let _expanding = Expanding(s);
            self.expand_execution(s, item);
        }
    }

    /// The best item of the work list; waits while it is empty and other workers may still add children.
    /// With a partner fuzzer, imports its new inputs first; with a partner and a time limit, an empty
    /// work list waits for the partner's next inputs until the time runs out. `None`: the search is over.
    fn take(&mut self, s: &Search<'_, '_>) -> Option<Item> {
        loop {
            if let Some(imp) = &s.import {
                let found = (imp.lock().unwrap_or_else(|e| e.into_inner()))();
                if !self.add_seeds(s, &found) {
                    return None;
                }
            }
            let mut st = s.lock();
            loop {
                if st.stop {
                    return None;
                }
                if let Some((_, item)) = st.work.pop_last() {
                    st.busy += 1;
                    if item.owner != self.id {
                        st.taken.push((item.owner, item.age));
                    }
                    return Some(item);
                }
                if st.busy == 0 {
                    if s.import.is_some() && s.opts.max_time.is_some() {
                        if s.out_of_budget(&mut st) {
                            return None;
                        }
                        drop(st);
                        std::thread::sleep(Duration::from_millis(200));
                        break;
                    }
                    st.stats.exhausted = true;
                    s.end(&mut st);
                    return None;
                }
                st = s
                    .wake
                    .wait_timeout(st, Duration::from_millis(200))
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
                if s.import.is_some() {
                    break;
                }
            }
        }
    }

    /// Runs the seeds not run before and puts them in the work list with bound 0; `false` when a limit
    /// stopped it.
    fn add_seeds(&mut self, s: &Search<'_, '_>, seeds: &[Vec<u8>]) -> bool {
        for seed in seeds {
            let n = match s.begin_run(seed, false) {
                Begin::Stop => return false,
                Begin::Seen => continue,
                Begin::Run(n) => n,
            };
            let (run, score) = self.run_and_check(s, seed, n);
            let bytes = combine_base(seed, &run.bytes);
            self.push(s, bytes, run.pc, 0, score);
        }
        true
    }

    /// `Run&Check` + `Score`: runs `bytes`, adds its blocks to the coverage, records a new crash. Returns
    /// the run and its score (blocks it covered first).
    fn run_and_check(&mut self, s: &Search<'_, '_>, bytes: &[u8], n: u64) -> (ConcolicRun, usize) {
        let run = concolic_run(self.prog, &s.opts.run, &self.ctx, bytes);
        let mut st = s.lock();
        st.stats.concretised += run.concretised as u64;
        st.traces.insert(run.trace);
        let mut score = 0;
        for b in &run.blocks {
            if st.covered.insert(*b) {
                score += 1;
            }
        }
        match &run.end {
            End::Bug(bug) => check_crash(s, &mut st, bug, &run, n),
            End::Halt(Halt::Limit(_)) | End::Halt(Halt::Unsupported { .. }) => st.stats.cut += 1,
            _ => {}
        }
        // Under the state lock, so that the caller sees the runs in their order.
        s.emit(Event::Ran {
            run: &run,
            new_blocks: score,
        });
        (run, score)
    }

    fn push(
        &mut self,
        s: &Search<'_, '_>,
        bytes: Vec<u8>,
        pc: Vec<Conjunct>,
        bound: usize,
        score: usize,
    ) {
        let mut st = s.lock();
        let age = st.next_age;
        st.next_age += 1;
        let item = Item {
            bytes,
            bound,
            owner: self.id,
            age,
        };
        st.work.insert((score, Reverse(age)), item);
        self.pcs.insert(age, pc);
        let (id, pcs) = (self.id, &mut self.pcs);
        st.taken.retain(|&(owner, age)| {
            if owner == id {
                pcs.remove(&age);
            }
            owner != id
        });
        s.wake.notify_one();
    }

    /// The path condition of `item`: kept if this worker ran it, else rebuilt by running it again.
    fn path_condition(&mut self, s: &Search<'_, '_>, item: &Item) -> Vec<Conjunct> {
        if item.owner == self.id {
            if let Some(pc) = self.pcs.remove(&item.age) {
                return pc;
            }
        }
        let run = concolic_run(self.prog, &s.opts.run, &self.ctx, &item.bytes);
        s.lock().stats.reruns += 1;
        run.pc
    }

    /// `ExpandExecution`: negates each branch conjunct from the bound on, runs and scores each child.
    fn expand_execution(&mut self, s: &Search<'_, '_>, item: Item) {
        let pc = self.path_condition(s, &item);
        for j in item.bound..pc.len() {
            if !pc[j].is_branch() {
                continue;
            }
            if s.stopped() {
                return;
            }
            let Some(child) = self.solve_child(s, &item.bytes, &pc, j) else {
                continue;
            };
            let n = match s.begin_run(&child, true) {
                Begin::Stop => return,
                Begin::Seen => continue,
                Begin::Run(n) => n,
            };
            let (run, score) = self.run_and_check(s, &child, n);
            if diverged(&pc, j, &run.pc) {
                s.lock().stats.divergences += 1;
            }
            let bytes = combine_base(&child, &run.bytes);
            self.push(s, bytes, run.pc, j + 1, score);
        }
    }

    /// `PC[0..j) ∧ ¬PC[j]`, solved and combined with the input (`None`: unsatisfiable or unknown).
    fn solve_child(
        &mut self,
        s: &Search<'_, '_>,
        input: &[u8],
        pc: &[Conjunct],
        j: usize,
    ) -> Option<Vec<u8>> {
        let q = relevant_query(&pc[..j], pc[j].negated());
        let t = Instant::now();
        let r = self.solver.check(&q);
        let mut st = s.lock();
        st.stats.solver_queries += 1;
        st.stats.solver_time += t.elapsed();
        match r {
            SatResult::Sat(m) => {
                st.stats.children += 1;
                drop(st);
                let mut bytes = input.to_vec();
                // Every byte the query mentions takes the model's value: a model may leave out a
                // variable (the caches answer with a model of a related query, checked by evaluation,
                // where a missing variable is 0), and then 0 is the value that satisfies the query.
                for var in symex_expr::free_vars(&q) {
                    let (Some(p), Value::Bv { value, .. }) =
                        (var.as_var().and_then(byte_pos), m.value_of(&var))
                    else {
                        continue;
                    };
                    if p >= bytes.len() {
                        bytes.resize(p + 1, 0);
                    }
                    bytes[p] = value as u8;
                }
                Some(bytes)
            }
            SatResult::Unsat => {
                st.stats.unsat += 1;
                None
            }
            SatResult::Unknown(_) => {
                st.stats.unknown += 1;
                None
            }
        }
    }
}

/// Records `bug` when its (kind, location, call stack) is new.
fn check_crash(s: &Search<'_, '_>, st: &mut Shared, bug: &Bug, run: &ConcolicRun, n: u64) {
    let key = (
        bug.kind.as_str().to_string(),
        bug.loc.file.clone(),
        bug.loc.line,
        bug.loc.function.clone(),
        run.stack.clone(),
    );
    if !st.crash_keys.insert(key) {
        return;
    }
    st.crashes.push(Crash {
        bug: bug.clone(),
        stack: run.stack.clone(),
        bytes: run.bytes.clone(),
        inputs: run.inputs.clone(),
        run: n,
        time: s.start.elapsed(),
    });
    s.emit(Event::Crash(st.crashes.last().expect("just pushed")));
}

/// The generational search over one program.
pub struct Fuzzer<'p> {
    prog: &'p Program,
    opts: FuzzOptions,
    solver_timeout: Option<Duration>,
    jobs: usize,
    /// The block coverage (function, block).
    pub covered: FxHashSet<(u32, u32)>,
    /// The distinct crashes, in the order found.
    pub crashes: Vec<Crash>,
    /// The distinct block sequences of the runs (`symex run` agreement check).
    pub traces: FxHashSet<Trace>,
    pub stats: Stats,
    /// Everything else the workers share between searches (work list, inputs run, crash keys).
    rest: Shared,
    start: Instant,
}

impl<'p> Fuzzer<'p> {
    pub fn new(prog: &'p Program, opts: FuzzOptions) -> Fuzzer<'p> {
        Fuzzer {
            prog,
            opts,
            solver_timeout: None,
            jobs: 1,
            covered: FxHashSet::default(),
            crashes: Vec::new(),
            traces: FxHashSet::default(),
            stats: Stats::default(),
            rest: Shared::default(),
            start: Instant::now(),
        }
    }

    /// Time-outs of one query (a query that runs out leaves its child unsolved).
    pub fn set_solver_timeout(&mut self, t: Option<Duration>) {
        self.solver_timeout = t;
    }

    /// Parallel workers (`--jobs N`, at least 1): each thread loads its own copy of the program and
    /// has its own solver; they share the work list, the coverage, the inputs run and the crashes.
    pub fn set_jobs(&mut self, jobs: usize) {
        self.jobs = jobs.max(1);
    }

    /// `GenerateInputs` from the given seeds (each with bound 0), until the work list is empty or a limit
    /// is reached. `on` sees every run and every new crash, one at a time, in the order of the runs.
    pub fn generate_inputs(&mut self, seeds: &[Vec<u8>], on: &mut (dyn FnMut(Event<'_>) + Send)) {
        self.generate_inputs_hybrid(seeds, on, None);
    }

    /// `GenerateInputs` with a partner fuzzer: before each expansion, `import` gives the inputs the
    /// partner found since (run and added as seeds, bound 0). With a partner and a time limit, an empty
    /// work list waits for the partner's next inputs until the time runs out.
    pub fn generate_inputs_hybrid(
        &mut self,
        seeds: &[Vec<u8>],
        on: &mut (dyn FnMut(Event<'_>) + Send),
        import: Option<&mut (dyn FnMut() -> Vec<Vec<u8>> + Send)>,
    ) {
        let mut shared = std::mem::take(&mut self.rest);
        shared.covered = std::mem::take(&mut self.covered);
        shared.crashes = std::mem::take(&mut self.crashes);
        shared.traces = std::mem::take(&mut self.traces);
        shared.stats = std::mem::take(&mut self.stats);
        shared.stats.exhausted = false;
        (shared.stop, shared.busy) = (false, 0);
        let s = Search {
            state: Mutex::new(shared),
            wake: Condvar::new(),
            opts: &self.opts,
            start: self.start,
            on: Mutex::new(on),
            import: import.map(Mutex::new),
        };
        let timeout = self.solver_timeout;
        let mut first = Worker::new(0, self.prog, timeout);
        // The seeds run first, so that the other workers do not find an empty work list and stop.
        if first.add_seeds(&s, seeds) {
            let module = &self.prog.module;
            std::thread::scope(|scope| {
                for id in 1..self.jobs {
                    let s = &s;
                    scope.spawn(move || {
                        let prog = Program::new(module.clone());
                        Worker::new(id, &prog, timeout).work(s);
                    });
                }
                first.work(&s);
            });
        }
        let mut shared = s.state.into_inner().unwrap_or_else(|e| e.into_inner());
        self.covered = std::mem::take(&mut shared.covered);
        self.crashes = std::mem::take(&mut shared.crashes);
        self.traces = std::mem::take(&mut shared.traces);
        self.stats = std::mem::take(&mut shared.stats);
        shared.taken.clear();
        self.rest = shared;
    }

    /// Items waiting in the work list.
    pub fn work_list_len(&self) -> usize {
        self.rest.work.len()
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// The query of a child: `¬PC[j]` and the prefix conjuncts that share input bytes with it, transitively.
/// The other conjuncts mention only bytes the model then leaves alone, which keep the input's values and
/// so still satisfy them: `Combine` changes only the bytes the flipped branch depends on (in `top()`,
/// exactly one letter), as in the lecture's table.
fn relevant_query(prefix: &[Conjunct], negated: Term) -> Vec<Term> {
    let mut vars: FxHashSet<Term> = negated.free_vars().into_iter().collect();
    let prefix_vars: Vec<Vec<Term>> = prefix.iter().map(|c| c.cond.free_vars()).collect();
    let mut taken = vec![false; prefix.len()];
    loop {
        let mut grew = false;
        for (i, vs) in prefix_vars.iter().enumerate() {
            if !taken[i] && vs.iter().any(|v| vars.contains(v)) {
                taken[i] = true;
                vars.extend(vs.iter().cloned());
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let mut q: Vec<Term> = prefix
        .iter()
        .zip(&taken)
        .filter(|(_, t)| **t)
        .map(|(c, _)| c.holds())
        .collect();
    q.push(negated);
    q
}

/// `Combine`'s base: the input's bytes, extended with the zeros the run read past their end.
fn combine_base(input: &[u8], consumed: &[u8]) -> Vec<u8> {
    let mut b = input.to_vec();
    if consumed.len() > b.len() {
        b.extend_from_slice(&consumed[b.len()..]);
    }
    b
}

/// Whether the child of conjunct `j` of `parent` left its predicted path: its first `j` conjuncts are not
/// the parent's, or its `j`-th is not the parent's negated.
fn diverged(parent: &[Conjunct], j: usize, child: &[Conjunct]) -> bool {
    if child.len() <= j {
        return true;
    }
    let same = |a: &Conjunct, b: &Conjunct| a.cond == b.cond && a.site == b.site;
    let prefix_kept = parent[..j]
        .iter()
        .zip(&child[..j])
        .all(|(p, c)| same(p, c) && p.taken == c.taken);
    !(prefix_kept && same(&parent[j], &child[j]) && child[j].taken != parent[j].taken)
}

/// Block coverage, for summaries: (covered, total blocks of defined functions).
pub fn coverage_counts(prog: &Program, covered: &FxHashSet<(u32, u32)>) -> (usize, usize) {
    let total = prog
        .module
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref().map(|b| b.blocks.len()))
        .sum();
    (covered.len(), total)
}
