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
//! lecture's `top()` would need more than the 16 runs its table shows. Branch conjuncts are negated, and so
//! is an assumption the run failed (its other side is the child that satisfies it); concretisations and
//! assumptions that held stay in every prefix. An input that was already run is not run again.
//!
//! When the solver stalls (a query answers unknown: a time-out or a spent rlimit) the search mutates
//! ([`crate::mutate`]): a stalled expansion is followed by a round of mutants of the inputs that covered
//! new blocks, and an empty work list with children left unsolved by rounds until the budget is spent
//! (without a budget, until four rounds in a row find nothing). A mutant that covers new blocks enters the
//! work list with bound 0 and its score, so the solver expands what mutation reached. A (block, side)
//! whose query answered unknown is not asked again: the mutator gets that time. A query that ran out of
//! time owes the mutator as much time as it took: after a stalled expansion mutation rounds run until
//! the debt is paid (at least one round), so that a program whose branches the solver cannot decide is
//! fuzzed at least half of the time, as hybrid fuzzers share it. Mutants run concretely (no term is
//! built: their only use is coverage and crashes); one that covers new blocks runs again concolically
//! for the path condition the work list needs.

use crate::campaign::{Child, CrashRecord, Finished, SharedWorkList, Taken};
use crate::concolic::{byte_pos, Conjunct};
use crate::mutate::{dictionary, havoc, Rng};
use crate::run::{concolic_run, concrete_run, ConcolicRun, RunConfig};
use crate::work_list::{Item, WorkList};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
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
    /// Runs of mutants (the search's mutation rounds, when the solver stalled).
    pub mutants: u64,
    /// Mutants that covered new blocks (each entered the work list).
    pub mutant_finds: u64,
    /// Negated conjuncts not asked because their (block, side) answered unknown before.
    pub skipped_hard: u64,
    /// Partner fuzzer inputs (AFL++'s queue) that covered no new block: run, not expanded.
    pub imports_dropped: u64,
    /// Whether the work list ran empty (every child of every input was run).
    pub exhausted: bool,
    /// In a campaign: items this process expanded or gave back without ending them (another
    /// process took them over, or this one reached a limit); their runs are not the campaign's.
    pub lost_items: u64,
    /// Why the search stopped early, if it did.
    pub stopped: Option<String>,
}

/// The search state all workers share. The lecture's note on parallel SAGE: only the work list and the
/// block coverage need sharing; the inputs run, the crash keys and the counters go with them so that
/// duplicates, crash deduplication and numbering stay global.
#[derive(Default)]
struct Shared {
    covered: FxHashSet<(u32, u32)>,
    work: WorkList,
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
    /// The inputs that covered new blocks (the seeds first): the mutator's parents.
    corpus: Vec<Vec<u8>>,
    /// (block, side) of negated conjuncts whose query answered unknown.
    hard: FxHashSet<((u32, u32), bool)>,
    /// Mutation rounds in a row that found no new block.
    fruitless: u32,
    /// In a campaign: what the expansion of the item taken produced so far.
    pending: Option<Finished>,
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
    /// The mutator's dictionary: the constants the program compares against.
    dict: Vec<Vec<u8>>,
    /// The work list shared with other processes, if this process is a campaign's worker.
    campaign: Option<&'a dyn SharedWorkList>,
}

/// Mutants per mutation round.
const ROUND: usize = 256;
/// After this many children in a row covered no new block, a mutation round runs.
const PLATEAU: usize = 256;
/// Without a run or time limit, mutation stops after this many rounds in a row found nothing.
const FRUITLESS_ROUNDS: u32 = 4;
/// A campaign's worker keeps at most this many path conditions of its children.
const KEPT_PCS: usize = 4096;

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

    fn has_budget(&self) -> bool {
        self.opts.max_runs.is_some() || self.opts.max_time.is_some()
    }

    fn stopped(&self) -> bool {
        if let Some(c) = self.campaign {
            c.beat();
        }
        let mut st = self.lock();
        st.stop || self.out_of_budget(&mut st)
    }

    /// Claims a run number for `bytes` unless it was run before or a limit is reached (so that `--max-runs`
    /// holds over all workers). A child seen before counts as a duplicate.
    fn begin_run(&self, bytes: &[u8], child: bool) -> Begin {
        if let Some(c) = self.campaign {
            c.beat();
        }
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
    rng: Rng,
    /// (configured, current) time box of one query: halved after each unknown answer (down to a
    /// sixteenth, at least a second), back to the configured one after an answer, so that a run of
    /// queries the solver cannot answer (a hash's bits) leaves the time to the mutator.
    timeout: (Option<Duration>, Option<Duration>),
    /// Children run in a row that covered no new block.
    fruitless_children: usize,
    /// Time the solver spent on queries that ran out of time, not yet given to the mutator.
    owed: Duration,
    /// In a campaign: the path conditions of the children of the item under way, in order.
    fresh: Vec<Vec<Conjunct>>,
}

impl<'p> Worker<'p> {
    fn new(id: usize, prog: &'p Program, solver_timeout: Option<Duration>) -> Worker<'p> {
        // The concolic domain only builds terms with this context's term builder; queries go to `solver`.
        let ctx = SolverCtx::new(SolverConfig::default().build(), None);
        let mut solver = SolverConfig::default().build();
        solver.set_timeout(solver_timeout);
        Worker {
            timeout: (solver_timeout, solver_timeout),
            id,
            prog,
            ctx,
            solver,
            pcs: FxHashMap::default(),
            rng: Rng::new(0x5a6e ^ id as u64),
            fruitless_children: 0,
            owed: Duration::ZERO,
            fresh: Vec::new(),
        }
    }

    /// `PickFirstItem` and `ExpandExecution` until the search is over.
    fn work(&mut self, s: &Search<'_, '_>) {
        while let Some(item) = self.take(s) {
            let _expanding = Expanding(s);
            self.expand_execution(s, item);
        }
    }

    /// A campaign's worker: takes the shared work list's best item, expands it and ends it with
    /// everything the expansion produced, until the campaign is over or a limit of this process is
    /// reached (the item under way then goes back unexpanded).
    fn work_campaign(&mut self, s: &Search<'_, '_>, c: &dyn SharedWorkList) {
        while let Some(t) = c.take() {
            {
                let mut st = s.lock();
                if st.stop || s.out_of_budget(&mut st) {
                    drop(st);
                    c.release(t.id);
                    return;
                }
                st.covered.extend(t.covered.iter().copied());
                st.pending = Some(Finished::default());
            }
            self.fresh.clear();
            let id = t.id;
            let done = self.expand_taken(s, t);
            let finished = s.lock().pending.take().unwrap_or_default();
            if !done {
                c.release(id);
                self.forget(s, &finished);
                return;
            }
            match c.commit(id, &finished) {
                Some(ids) => {
                    for (id, pc) in ids.into_iter().zip(std::mem::take(&mut self.fresh)) {
                        if let Some(id) = id {
                            self.keep(id, pc);
                        }
                    }
                }
                None => self.forget(s, &finished),
            }
        }
        let mut st = s.lock();
        if !st.stop {
            st.stats.exhausted = true;
            s.end(&mut st);
        }
    }

    /// Expands a taken item; a seed is run first. `false`: a limit stopped it.
    fn expand_taken(&mut self, s: &Search<'_, '_>, t: Taken) -> bool {
        if t.run {
            // This process's own child keeps its path condition; another's is run again.
            let owner = match self.pcs.contains_key(&t.id) {
                true => self.id,
                false => usize::MAX,
            };
            let item = Item {
                bytes: t.bytes,
                bound: t.bound,
                owner,
                age: t.id,
            };
            return self.expand_execution(s, item);
        }
        let n = match s.begin_run(&t.bytes, false) {
            Begin::Stop => return false,
            Begin::Seen => return true,
            Begin::Run(n) => n,
        };
        let (run, _) = self.run_and_check(s, &t.bytes, n, true);
        let bytes = combine_base(&t.bytes, &run.bytes);
        s.lock().corpus.push(bytes.clone());
        self.pcs.insert(t.id, run.pc);
        let item = Item {
            bytes,
            bound: t.bound,
            owner: self.id,
            age: t.id,
        };
        self.expand_execution(s, item)
    }

    /// Keeps the path condition of this process's child `id`, for when it takes the item itself;
    /// the oldest are dropped beyond [`KEPT_PCS`] (the other processes take most of them).
    fn keep(&mut self, id: u64, pc: Vec<Conjunct>) {
        self.pcs.insert(id, pc);
        if self.pcs.len() > KEPT_PCS {
            if let Some(&oldest) = self.pcs.keys().min() {
                self.pcs.remove(&oldest);
            }
        }
    }

    /// An item that was not ended by this process: its runs are not the campaign's, so they count
    /// as not run here either (this process may take the item again).
    fn forget(&mut self, s: &Search<'_, '_>, f: &Finished) {
        let mut st = s.lock();
        for r in &f.runs {
            st.seen.remove(r);
        }
        st.stats.lost_items += 1;
    }

    /// The best item of the work list; waits while it is empty and other workers may still add children.
    /// With a partner fuzzer, imports its new inputs first; with a partner and a time limit, an empty
    /// work list waits for the partner's next inputs until the time runs out. `None`: the search is over.
    fn take(&mut self, s: &Search<'_, '_>) -> Option<Item> {
        loop {
            if let Some(imp) = &s.import {
                let found = (imp.lock().unwrap_or_else(|e| e.into_inner()))();
                if !self.add_seeds(s, &found, true) {
                    return None;
                }
            }
            let mut st = s.lock();
            loop {
                if st.stop {
                    return None;
                }
                if let Some(item) = st.work.pick(self.id) {
                    st.busy += 1;
                    if item.owner != self.id {
                        st.taken.push((item.owner, item.age));
                    }
                    return Some(item);
                }
                if st.busy == 0 {
                    // Children left unsolved: mutation takes over while there is budget.
                    let stalled =
                        st.stats.unknown > 0 && (s.has_budget() || st.fruitless < FRUITLESS_ROUNDS);
                    if stalled {
                        st.busy += 1;
                        drop(st);
                        let _mutating = Expanding(s);
                        self.mutation_round(s);
                        break;
                    }
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
    /// stopped it. A partner's input (`imported`) is scored by its concrete run first and enters the work
    /// list only when it covered new blocks: the partner already explored around the others, and the
    /// solver's time goes to what is new.
    fn add_seeds(&mut self, s: &Search<'_, '_>, seeds: &[Vec<u8>], imported: bool) -> bool {
        for seed in seeds {
            let n = match s.begin_run(seed, false) {
                Begin::Stop => return false,
                Begin::Seen => continue,
                Begin::Run(n) => n,
            };
            let (run, score) = self.run_and_check(s, seed, n, true);
            let bytes = combine_base(seed, &run.bytes);
            if imported && score == 0 {
                s.lock().stats.imports_dropped += 1;
                continue;
            }
            if !imported {
                s.lock().corpus.push(bytes.clone());
            }
            self.push(s, bytes, run.pc, 0, score);
        }
        true
    }

    /// One mutation round: [`ROUND`] mutants of the corpus (half of them of its newest entry, so that a
    /// chain of finds — a hash's bits one by one — is followed), each run and scored; a mutant that covers
    /// new blocks joins the corpus and the work list.
    fn mutation_round(&mut self, s: &Search<'_, '_>) {
        let mut found = false;
        for _ in 0..ROUND {
            let (parent, other) = {
                let st = s.lock();
                if st.corpus.is_empty() {
                    return;
                }
                let k = st.corpus.len();
                let p = if self.rng.below(2) == 0 {
                    k - 1
                } else {
                    self.rng.below(k)
                };
                (st.corpus[p].clone(), st.corpus[self.rng.below(k)].clone())
            };
            let m = havoc(&mut self.rng, &parent, &other, &s.dict);
            let n = match s.begin_run(&m, false) {
                Begin::Stop => break,
                Begin::Seen => continue,
                Begin::Run(n) => n,
            };
            let (run, score) = self.run_and_check(s, &m, n, false);
            s.lock().stats.mutants += 1;
            if score > 0 {
                found = true;
                s.lock().stats.mutant_finds += 1;
                let bytes = combine_base(&m, &run.bytes);
                let pc = concolic_run(self.prog, &s.opts.run, &self.ctx, &bytes).pc;
                self.push(s, bytes, pc, 0, score);
            }
        }
        let mut st = s.lock();
        st.fruitless = if found { 0 } else { st.fruitless + 1 };
    }

    /// Mutation rounds after a stalled expansion: one, then more until the time owed for queries
    /// that ran out is paid.
    fn mutate_for_the_stall(&mut self, s: &Search<'_, '_>) {
        loop {
            let t = Instant::now();
            self.mutation_round(s);
            self.owed = self.owed.saturating_sub(t.elapsed());
            if self.owed.is_zero() || s.stopped() {
                return;
            }
        }
    }

    /// `Run&Check` + `Score`: runs `bytes` (`symbolic`: with its path condition), adds its blocks to the
    /// coverage, records a new crash. Returns the run and its score (blocks it covered first).
    fn run_and_check(
        &mut self,
        s: &Search<'_, '_>,
        bytes: &[u8],
        n: u64,
        symbolic: bool,
    ) -> (ConcolicRun, usize) {
        let run = if symbolic {
            concolic_run(self.prog, &s.opts.run, &self.ctx, bytes)
        } else {
            concrete_run(self.prog, &s.opts.run, &self.ctx, bytes)
        };
        let mut st = s.lock();
        st.stats.concretised += run.concretised as u64;
        st.traces.insert(run.trace);
        let mut score = 0;
        let mut new_blocks = Vec::new();
        for b in &run.blocks {
            if st.covered.insert(*b) {
                score += 1;
                new_blocks.push(*b);
            }
        }
        if let Some(p) = &mut st.pending {
            p.runs.push(bytes.to_vec());
            p.blocks.extend(new_blocks);
        }
        if score > 0 {
            st.corpus.push(combine_base(bytes, &run.bytes));
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
        if let Some(p) = &mut st.pending {
            // A campaign's child: it enters the shared work list when the item ends.
            p.children.push(Child {
                bytes,
                bound,
                score,
            });
            self.fresh.push(pc);
            return;
        }
        let age = st.next_age;
        st.next_age += 1;
        let item = Item {
            bytes,
            bound,
            owner: self.id,
            age,
        };
        st.work.insert(score, item);
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
    /// A stalled expansion (a query answered unknown) is followed by a mutation round. `false`: a
    /// limit stopped it before every conjunct was negated.
    fn expand_execution(&mut self, s: &Search<'_, '_>, item: Item) -> bool {
        let pc = self.path_condition(s, &item);
        let independence = Independence::of(&pc);
        let mut stalled = false;
        for j in expansion_order(&pc, item.bound) {
            if s.stopped() {
                return false;
            }
            if let Some(site) = pc[j].site {
                let mut st = s.lock();
                if st.hard.contains(&(site, pc[j].taken)) {
                    st.stats.skipped_hard += 1;
                    continue;
                }
            }
            let q = independence.query(&pc, j);
            let child = match self.solve_child(s, &item.bytes, &q) {
                Solved::Child(c) => c,
                Solved::Unsat => continue,
                Solved::Unknown => {
                    stalled = true;
                    if let Some(site) = pc[j].site {
                        s.lock().hard.insert((site, pc[j].taken));
                    }
                    continue;
                }
            };
            let n = match s.begin_run(&child, true) {
                Begin::Stop => return false,
                Begin::Seen => continue,
                Begin::Run(n) => n,
            };
            let (run, score) = self.run_and_check(s, &child, n, true);
            if diverged(&pc, j, &run.pc) {
                s.lock().stats.divergences += 1;
            }
            self.fruitless_children = if score > 0 {
                0
            } else {
                self.fruitless_children + 1
            };
            if self.fruitless_children >= PLATEAU {
                // Nothing new from the solver for a while: the mutator gets the same share.
                self.fruitless_children = 0;
                self.mutation_round(s);
            }
            let bytes = combine_base(&child, &run.bytes);
            self.push(s, bytes, run.pc, j + 1, score);
        }
        if stalled && !s.stopped() {
            self.mutate_for_the_stall(s);
        }
        true
    }

    /// A child's query, solved and combined with the input.
    fn solve_child(&mut self, s: &Search<'_, '_>, input: &[u8], q: &[Term]) -> Solved {
        let t = Instant::now();
        let r = self.solver.check(q);
        let (base, now) = self.timeout;
        let next = match (&r, base, now) {
            (SatResult::Unknown(_), Some(b), Some(n)) => {
                Some((n / 2).max(b / 16).max(Duration::from_secs(1)).min(b))
            }
            _ => base,
        };
        if next != now {
            self.solver.set_timeout(next);
            self.timeout.1 = next;
        }
        if matches!(&r, SatResult::Unknown(u) if u.0.starts_with("timeout")) {
            self.owed += t.elapsed();
        }
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
                for var in symex_expr::free_vars(q) {
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
                Solved::Child(bytes)
            }
            SatResult::Unsat => {
                st.stats.unsat += 1;
                Solved::Unsat
            }
            SatResult::Unknown(_) => {
                st.stats.unknown += 1;
                Solved::Unknown
            }
        }
    }
}

/// What the solver made of a child's query.
enum Solved {
    Child(Vec<u8>),
    Unsat,
    Unknown,
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
    if !st.crash_keys.insert(key.clone()) {
        return;
    }
    if let Some(p) = &mut st.pending {
        p.crashes.push(CrashRecord {
            key: format!("{key:?}"),
            what: format!(
                "{} at {}:{} in {}: {}",
                bug.kind.as_str(),
                bug.loc.file,
                bug.loc.line,
                bug.loc.function,
                bug.message
            ),
            bytes: run.bytes.clone(),
        });
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
    /// The work list shared with other processes (a campaign), if any.
    campaign: Option<std::sync::Arc<dyn SharedWorkList>>,
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
            campaign: None,
        }
    }

    /// Be a worker of a campaign: the items come from, and the children go to, `work`; the seeds
    /// are the campaign's (its first worker's). One worker thread.
    pub fn set_campaign(&mut self, work: std::sync::Arc<dyn SharedWorkList>) {
        self.campaign = Some(work);
        self.jobs = 1;
    }

    /// The inputs this process ran (in a campaign: those of the items it ended), in no order.
    pub fn inputs_run(&self) -> impl Iterator<Item = &Vec<u8>> {
        self.rest.seen.iter()
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
            dict: dictionary(self.prog.module()),
            campaign: self.campaign.as_deref(),
        };
        let timeout = self.solver_timeout;
        let mut first = Worker::new(0, self.prog, timeout);
        if let Some(c) = self.campaign.as_deref() {
            first.work_campaign(&s, c);
        } else if first.add_seeds(&s, seeds, false) {
            // The seeds run first, so that the other workers do not find an empty work list and stop.
            let module = self.prog.module();
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

/// The order in which an expansion negates the branch conjuncts from `bound` on: first the first
/// conjunct of each (block, side), then the others in path order. A run over kilobytes repeats one
/// decision (a newline test, a loop bound) thousands of times; the conjuncts after those repetitions —
/// often the ones the program's logic turns on — are then not reached only after thousands of runs.
/// Each child keeps its bound `j + 1`, so the set of children is the generational search's.
fn expansion_order(pc: &[Conjunct], bound: usize) -> Vec<usize> {
    let mut seen: FxHashSet<(Option<(u32, u32)>, bool)> = FxHashSet::default();
    let (mut first, mut repeated) = (Vec::new(), Vec::new());
    for (j, c) in pc.iter().enumerate().skip(bound) {
        if !c.is_branch() {
            continue;
        }
        if seen.insert((c.site, c.taken)) {
            first.push(j);
        } else {
            repeated.push(j);
        }
    }
    first.extend(repeated);
    first
}

/// The independence of the path condition's conjuncts (KLEE's constraint independence, SAGE's
/// "relevant" constraints): conjuncts that share an input byte, transitively, fall in one class, found
/// once per expansion by union–find over the byte variables. The query of the child of conjunct `j` is
/// `¬PC[j]` with the prefix conjuncts that share bytes with it transitively through the prefix (a
/// subset of `j`'s class); the other conjuncts mention only bytes the model leaves alone, which keep the
/// input's values and so still satisfy them: `Combine` changes only the bytes the flipped branch depends
/// on (in `top()`, exactly one letter), as in the lecture's table. A run over kilobytes of input so asks
/// small queries, and builds each from its class, not from the whole path condition.
struct Independence {
    /// The free variables of each conjunct.
    vars: Vec<Vec<Term>>,
    /// The class (union–find root) of each conjunct; `None`: it has no variable.
    class_of: Vec<Option<usize>>,
    /// The conjuncts of each class, in path order.
    members: FxHashMap<usize, Vec<usize>>,
}

impl Independence {
    fn of(pc: &[Conjunct]) -> Independence {
        let vars: Vec<Vec<Term>> = pc.iter().map(|c| c.cond.free_vars()).collect();
        let mut ids: FxHashMap<&Term, usize> = FxHashMap::default();
        let mut parent: Vec<usize> = Vec::new();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let mut first_var: Vec<Option<usize>> = Vec::with_capacity(pc.len());
        for vs in &vars {
            let mut prev: Option<usize> = None;
            for v in vs {
                let next = parent.len();
                let id = *ids.entry(v).or_insert(next);
                if id == next {
                    parent.push(next);
                }
                if let Some(p) = prev {
                    let (a, b) = (root(&mut parent, p), root(&mut parent, id));
                    parent[a] = b;
                }
                prev = Some(id);
            }
            first_var.push(prev);
        }
        let mut members: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        let class_of: Vec<Option<usize>> = first_var
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let r = root(&mut parent, (*v)?);
                members.entry(r).or_default().push(i);
                Some(r)
            })
            .collect();
        Independence {
            vars,
            class_of,
            members,
        }
    }

    /// `¬PC[j]` and the prefix conjuncts sharing bytes with it, transitively through the prefix.
    fn query(&self, pc: &[Conjunct], j: usize) -> Vec<Term> {
        let prefix: &[usize] = match self.class_of[j] {
            Some(r) => {
                let m = &self.members[&r];
                &m[..m.partition_point(|&i| i < j)]
            }
            None => &[],
        };
        let mut vars: FxHashSet<&Term> = self.vars[j].iter().collect();
        let mut taken = vec![false; prefix.len()];
        loop {
            let mut grew = false;
            for (k, &i) in prefix.iter().enumerate() {
                if !taken[k] && self.vars[i].iter().any(|v| vars.contains(v)) {
                    taken[k] = true;
                    vars.extend(self.vars[i].iter());
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
            .map(|(&i, _)| pc[i].holds())
            .collect();
        q.push(pc[j].negated());
        q
    }
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
        .module()
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref().map(|b| b.blocks.len()))
        .sum();
    (covered.len(), total)
}
