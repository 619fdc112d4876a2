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
//! One concolic run is both `Run&Check` and `SymbolicExecution`, so a work-list item keeps the path
//! condition of its run and expansion re-runs nothing. The child of conjunct `j` has conjuncts `0..=j`
//! fixed (the prefix and the negation that made it), so it expands from `j + 1`: read literally, `bound ← j`
//! would make every child negate its own flipped conjunct again and regenerate its parent's path, and the
//! lecture's `top()` would need more than the 16 runs its table shows. Only branch conjuncts are negated;
//! concretisations and assumptions stay in every prefix. An input that was already run is not run again.

use crate::concolic::{byte_pos, Conjunct};
use crate::run::{concolic_run, ConcolicRun, RunConfig};
use rustc_hash::FxHashSet;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
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

/// A work-list item: an input that was run, with its path condition and its bound (its `Score` and age
/// are its key in the work list).
struct Item {
    bytes: Vec<u8>,
    pc: Vec<Conjunct>,
    bound: usize,
}

/// The generational search over one program.
pub struct Fuzzer<'p> {
    prog: &'p Program,
    opts: FuzzOptions,
    ctx: Rc<RefCell<SolverCtx>>,
    solver: Box<dyn Solver>,
    /// The block coverage (function, block).
    pub covered: FxHashSet<(u32, u32)>,
    /// Work list keyed by (score, -age) so that the last entry is PickFirstItem's choice.
    work: BTreeMap<(usize, std::cmp::Reverse<u64>), Item>,
    seen: FxHashSet<Vec<u8>>,
    crash_keys: FxHashSet<(String, String, u32, String, Vec<String>)>,
    pub crashes: Vec<Crash>,
    /// The distinct block sequences of the runs (`symex run` agreement check).
    pub traces: FxHashSet<Trace>,
    pub stats: Stats,
    next_age: u64,
    start: Instant,
}

impl<'p> Fuzzer<'p> {
    pub fn new(prog: &'p Program, opts: FuzzOptions) -> Fuzzer<'p> {
        // The concolic domain only builds terms with this context's term builder; queries go to `solver`.
        let ctx = SolverCtx::new(SolverConfig::default().build(), None);
        Fuzzer {
            prog,
            opts,
            ctx,
            solver: SolverConfig::default().build(),
            covered: FxHashSet::default(),
            work: BTreeMap::new(),
            seen: FxHashSet::default(),
            crash_keys: FxHashSet::default(),
            crashes: Vec::new(),
            traces: FxHashSet::default(),
            stats: Stats::default(),
            next_age: 0,
            start: Instant::now(),
        }
    }

    /// Time-outs of one query (a query that runs out leaves its child unsolved).
    pub fn set_solver_timeout(&mut self, t: Option<Duration>) {
        self.solver.set_timeout(t);
    }

    fn out_of_budget(&mut self) -> bool {
        if let Some(m) = self.opts.max_runs {
            if self.stats.runs >= m {
                self.stats.stopped = Some(format!("run limit of {m} reached"));
                return true;
            }
        }
        if let Some(t) = self.opts.max_time {
            if self.start.elapsed() >= t {
                self.stats.stopped =
                    Some(format!("time limit of {:.1} s reached", t.as_secs_f64()));
                return true;
            }
        }
        false
    }

    /// `Run&Check` + `Score`: runs `bytes`, adds its blocks to the coverage, records a new crash. Returns
    /// the run and its score (blocks it covered first).
    fn run_and_check(
        &mut self,
        bytes: &[u8],
        on: &mut dyn FnMut(Event<'_>),
    ) -> (ConcolicRun, usize) {
        self.seen.insert(bytes.to_vec());
        let run = concolic_run(self.prog, &self.opts.run, &self.ctx, bytes);
        self.stats.runs += 1;
        self.stats.concretised += run.concretised as u64;
        self.traces.insert(run.trace);
        let mut score = 0;
        for b in &run.blocks {
            if self.covered.insert(*b) {
                score += 1;
            }
        }
        match &run.end {
            End::Bug(bug) => self.check_crash(bug, &run, on),
            End::Halt(Halt::Limit(_)) | End::Halt(Halt::Unsupported { .. }) => self.stats.cut += 1,
            _ => {}
        }
        on(Event::Ran {
            run: &run,
            new_blocks: score,
        });
        (run, score)
    }

    /// Records `bug` when its (kind, location, call stack) is new.
    fn check_crash(&mut self, bug: &Bug, run: &ConcolicRun, on: &mut dyn FnMut(Event<'_>)) {
        let key = (
            bug.kind.as_str().to_string(),
            bug.loc.file.clone(),
            bug.loc.line,
            bug.loc.function.clone(),
            run.stack.clone(),
        );
        if !self.crash_keys.insert(key) {
            return;
        }
        self.crashes.push(Crash {
            bug: bug.clone(),
            stack: run.stack.clone(),
            bytes: run.bytes.clone(),
            inputs: run.inputs.clone(),
            run: self.stats.runs,
            time: self.start.elapsed(),
        });
        on(Event::Crash(self.crashes.last().expect("just pushed")));
    }

    fn push(&mut self, bytes: Vec<u8>, run: ConcolicRun, bound: usize, score: usize) {
        let age = self.next_age;
        self.next_age += 1;
        let item = Item {
            bytes,
            pc: run.pc,
            bound,
        };
        self.work.insert((score, std::cmp::Reverse(age)), item);
    }

    /// `GenerateInputs` from the given seeds (each with bound 0), until the work list is empty or a limit
    /// is reached. `on` sees every run and every new crash.
    pub fn generate_inputs(&mut self, seeds: &[Vec<u8>], on: &mut dyn FnMut(Event<'_>)) {
        self.generate_inputs_hybrid(seeds, on, None);
    }

    /// `GenerateInputs` with a partner fuzzer: before each expansion, `import` gives the inputs the
    /// partner found since (run and added as seeds, bound 0). With a partner and a time limit, an empty
    /// work list waits for the partner's next inputs until the time runs out.
    pub fn generate_inputs_hybrid(
        &mut self,
        seeds: &[Vec<u8>],
        on: &mut dyn FnMut(Event<'_>),
        mut import: Option<&mut dyn FnMut() -> Vec<Vec<u8>>>,
    ) {
        if !self.add_seeds(seeds, on) {
            return;
        }
        loop {
            if let Some(imp) = import.as_mut() {
                let found = imp();
                if !self.add_seeds(&found, on) {
                    return;
                }
            }
            match self.work.pop_last() {
                Some((_, input)) => {
                    if !self.expand_execution(input, on) {
                        return;
                    }
                }
                None if import.is_some() && self.opts.max_time.is_some() => {
                    if self.out_of_budget() {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(200));
                }
                None => break,
            }
        }
        self.stats.exhausted = true;
    }

    /// Runs the seeds not run before and puts them in the work list with bound 0; `false` when a limit
    /// stopped it.
    fn add_seeds(&mut self, seeds: &[Vec<u8>], on: &mut dyn FnMut(Event<'_>)) -> bool {
        for seed in seeds {
            if self.out_of_budget() {
                return false;
            }
            if self.seen.contains(seed) {
                continue;
            }
            let (run, score) = self.run_and_check(seed, on);
            let bytes = combine_base(seed, &run.bytes);
            self.push(bytes, run, 0, score);
        }
        true
    }

    /// `ExpandExecution`: negates each branch conjunct from the bound on, runs and scores each child.
    /// `false` when a limit stopped it.
    fn expand_execution(&mut self, input: Item, on: &mut dyn FnMut(Event<'_>)) -> bool {
        for j in input.bound..input.pc.len() {
            if !input.pc[j].is_branch() {
                continue;
            }
            if self.out_of_budget() {
                return false;
            }
            let Some(child) = self.solve_child(&input, j) else {
                continue;
            };
            if self.seen.contains(&child) {
                self.stats.duplicates += 1;
                continue;
            }
            let (run, score) = self.run_and_check(&child, on);
            if diverged(&input.pc, j, &run.pc) {
                self.stats.divergences += 1;
            }
            let bytes = combine_base(&child, &run.bytes);
            self.push(bytes, run, j + 1, score);
        }
        true
    }

    /// `PC[0..j) ∧ ¬PC[j]`, solved and combined with the input (`None`: unsatisfiable or unknown).
    fn solve_child(&mut self, input: &Item, j: usize) -> Option<Vec<u8>> {
        let q = relevant_query(&input.pc[..j], input.pc[j].negated());
        let t = Instant::now();
        let r = self.solver.check(&q);
        self.stats.solver_queries += 1;
        self.stats.solver_time += t.elapsed();
        match r {
            SatResult::Sat(m) => {
                self.stats.children += 1;
                let mut bytes = input.bytes.clone();
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
                self.stats.unsat += 1;
                None
            }
            SatResult::Unknown(_) => {
                self.stats.unknown += 1;
                None
            }
        }
    }

    /// Items waiting in the work list.
    pub fn work_list_len(&self) -> usize {
        self.work.len()
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
