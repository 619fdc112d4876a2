//! One exploration on several threads (`--jobs N`): SAGE's observation that only the work list and the
//! block coverage need sharing, with the work list split by work stealing.
//!
//! Each worker is an ordinary [`Explorer`] with its own program, solver (a Z3 context belongs to one
//! thread) and searcher. Every worker explores the tree's top and keeps its share of the subtrees below
//! it ([`crate::partition`]). A worker whose searcher runs dry waits at the [`Pool`]; a worker that sees
//! a waiting one gives away its oldest live state below the top as a [`WorkItem`]: the state's
//! signature, which the taker rebuilds on its own program (terms are interned per thread, so a state
//! itself cannot move). The subtrees are disjoint, so an exhaustive exploration explores each path
//! once, whatever the number of workers. Finished paths go to the caller's thread,
//! which numbers the tests; the workers' totals are added up at the end.

use crate::explore::{Control, Explorer, FinishedPath, Options, PathEnd, Progress, Summary};
use crate::partition::Partition;
use crate::signature::PathSignature;
use crate::symbolic::SolverCtx;
use rustc_hash::FxHashSet;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use symex_engine::guide::GuideStep;
use symex_engine::{End, Program};

/// Finished paths a worker sends to the caller's thread at once.
const PATH_BATCH: usize = 256;

/// A live state given away: enough to rebuild it on another worker's copy of the program.
#[derive(Clone, Debug)]
pub struct WorkItem {
    pub sig: PathSignature,
    /// Instructions the state had executed (it may have run past its last decision).
    pub steps: u64,
    /// Its forks so far (`--max-depth`).
    pub depth: u32,
    pub new_coverage: bool,
    pub since_new_coverage: u64,
}

/// What a worker gives to the work list it shares with others, asked at every scheduling step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// Nothing now.
    Keep,
    /// Its oldest live state (the root of its largest subtree), keeping the others.
    Oldest,
    /// All its live states, ending the work item it holds (a campaign's checkpoint: the item it took
    /// is replaced by its unexplored subtrees, so a worker that dies later loses only what followed).
    All,
}

/// A work list shared by the workers of one exploration: the threads' [`Pool`], or a campaign's
/// stream that workers in other processes read (`symex-campaign`).
pub trait WorkList {
    /// The next item, once the worker's own states ran out; `covered` is the worker's block
    /// coverage so far, to which a campaign adds the blocks the other workers covered (so that the
    /// search and `--tests new-coverage` count what is new to the campaign). `None`: the exploration
    /// is over (or halted). May block.
    fn take(&self, covered: &mut FxHashSet<(u32, u32)>) -> Option<WorkItem>;
    /// What to give now (read often: must be cheap).
    fn share(&self) -> Share;
    /// States given away as [`Share`] asked.
    fn give(&self, items: Vec<WorkItem>, covered: &FxHashSet<(u32, u32)>);
    /// The worker stopped with live states left: hand them back (`Some`) or cut them (`None`, as
    /// the threads' pool does: a limit of the whole exploration was reached). A state that has no
    /// signature is given as `None`.
    fn hand_back(&self, items: Vec<Option<WorkItem>>, covered: &FxHashSet<(u32, u32)>) -> bool;
    /// Whether the caller wants no more paths.
    fn stopped(&self) -> bool;
    /// The limit another worker halted at, if any.
    fn limit(&self) -> Option<String>;
    /// Halts every worker at a limit of the whole exploration.
    fn halt_at_limit(&self, why: String);
}

impl WorkList for Pool {
    fn take(&self, _: &mut FxHashSet<(u32, u32)>) -> Option<WorkItem> {
        Pool::take(self)
    }

    fn share(&self) -> Share {
        match self.hungry() {
            true => Share::Oldest,
            false => Share::Keep,
        }
    }

    fn give(&self, items: Vec<WorkItem>, _: &FxHashSet<(u32, u32)>) {
        for item in items {
            Pool::give(self, item);
        }
    }

    fn hand_back(&self, _: Vec<Option<WorkItem>>, _: &FxHashSet<(u32, u32)>) -> bool {
        false
    }

    fn stopped(&self) -> bool {
        Pool::stopped(self)
    }

    fn limit(&self) -> Option<String> {
        Pool::limit(self)
    }

    fn halt_at_limit(&self, why: String) {
        Pool::halt_at_limit(self, why)
    }
}

/// Why the workers stop before the work runs out.
#[derive(Clone, Debug)]
enum Halt {
    /// A limit of the whole exploration (time, memory, the user's SIGINT): each worker's live states
    /// are cut (or dumped) with this reason.
    Limit(String),
    /// The caller wants no more paths (`--exit-on-error`, a verdict found).
    Stopped,
}

#[derive(Default)]
struct Queue {
    items: VecDeque<WorkItem>,
    /// Workers waiting for an item.
    idle: usize,
    halt: Option<Halt>,
    /// Every worker waited with nothing queued: the exploration is over.
    done: bool,
}

/// The work list the workers of one exploration share.
pub struct Pool {
    workers: usize,
    queue: Mutex<Queue>,
    wake: Condvar,
    /// More workers wait than items are queued (read at every scheduling step, without the lock).
    hungry: AtomicBool,
    /// A halt is requested (read without the lock).
    halted: AtomicBool,
}

impl Pool {
    pub fn new(workers: usize) -> Pool {
        Pool {
            workers,
            queue: Mutex::default(),
            wake: Condvar::new(),
            hungry: AtomicBool::new(false),
            halted: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn update_hunger(&self, q: &Queue) {
        self.hungry
            .store(q.idle > q.items.len() && !q.done, Ordering::Relaxed);
    }

    /// Whether a worker waits for work.
    pub fn hungry(&self) -> bool {
        self.hungry.load(Ordering::Relaxed)
    }

    pub fn give(&self, item: WorkItem) {
        let mut q = self.lock();
        q.items.push_back(item);
        self.update_hunger(&q);
        self.wake.notify_one();
    }

    /// The next item; `None` when every worker waits with nothing queued (the exploration is over) or
    /// a halt was requested. Blocks meanwhile.
    pub fn take(&self) -> Option<WorkItem> {
        let mut q = self.lock();
        q.idle += 1;
        loop {
            if q.halt.is_some() || q.done {
                break;
            }
            if let Some(item) = q.items.pop_front() {
                q.idle -= 1;
                self.update_hunger(&q);
                return Some(item);
            }
            if q.idle == self.workers {
                q.done = true;
                self.wake.notify_all();
                break;
            }
            self.update_hunger(&q);
            q = self.wake.wait(q).unwrap_or_else(|e| e.into_inner());
        }
        q.idle -= 1;
        self.update_hunger(&q);
        None
    }

    fn halt(&self, h: Halt) {
        let mut q = self.lock();
        if q.halt.is_none() {
            q.halt = Some(h);
        }
        self.halted.store(true, Ordering::Relaxed);
        self.update_hunger(&q);
        self.wake.notify_all();
    }

    /// Halts every worker at a limit of the whole exploration.
    pub fn halt_at_limit(&self, why: String) {
        self.halt(Halt::Limit(why));
    }

    /// The limit another worker halted at, if any.
    pub fn limit(&self) -> Option<String> {
        if !self.halted.load(Ordering::Relaxed) {
            return None;
        }
        match &self.lock().halt {
            Some(Halt::Limit(why)) => Some(why.clone()),
            _ => None,
        }
    }

    /// Whether the caller wants no more paths.
    pub fn stopped(&self) -> bool {
        self.halted.load(Ordering::Relaxed) && matches!(self.lock().halt, Some(Halt::Stopped))
    }

    /// A worker ended: when it ended early (an error, a halt), the others must not wait for it.
    fn leave(&self) {
        let mut q = self.lock();
        if !q.done && q.halt.is_none() {
            q.halt = Some(Halt::Stopped);
            self.halted.store(true, Ordering::Relaxed);
        }
        self.wake.notify_all();
    }
}

/// What a parallel exploration needs to build each worker's own program and solver.
pub struct Setup<'a> {
    pub prog: &'a Program,
    pub opts: Options,
    pub jobs: usize,
    /// A fresh solver context (called on each worker's thread).
    pub solver: &'a (dyn Fn() -> Rc<RefCell<SolverCtx>> + Sync),
    /// Forward the paths' standard output to `on_output` (see [`Explorer::echo_output`]).
    pub echo: bool,
}

enum Msg {
    Paths(Vec<FinishedPath>),
    Output(Vec<u8>),
    Progress(usize, Progress),
    Done(usize, Result<Summary, End>),
}

/// Explores on `setup.jobs` threads; the callbacks run on the caller's thread, `on_path` once per
/// finished path. A `Stop` from it halts the workers (paths they finish meanwhile are not handed over).
pub fn explore(
    setup: Setup<'_>,
    on_path: &mut dyn FnMut(&FinishedPath) -> Control,
    on_output: &mut dyn FnMut(&[u8]),
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<Summary, End> {
    let jobs = setup.jobs.max(1);
    // A program holds reference-counted names: each worker builds its own from the module.
    let module = setup.prog.module();
    let guide: Option<Vec<GuideStep>> = setup.prog.guide.as_deref().map(<[_]>::to_vec);
    let pool = Arc::new(Pool::new(jobs));
    let (tx, rx) = mpsc::channel::<Msg>();
    std::thread::scope(|s| {
        for id in 0..jobs {
            let (tx, pool, opts, guide) = (tx.clone(), pool.clone(), setup.opts.clone(), &guide);
            let (solver, echo) = (setup.solver, setup.echo);
            s.spawn(move || {
                let mut prog = Program::new(module.clone());
                prog.guide = guide.clone().map(Rc::from);
                let shared: Arc<dyn WorkList> = pool.clone();
                let mut ex = Explorer::new(&prog, opts, solver())
                    .in_pool(shared, id == 0)
                    .partitioned(Partition::new(id, jobs));
                if echo {
                    let tx = tx.clone();
                    ex = ex.echo_output(Box::new(move |b: &[u8]| {
                        let _ = tx.send(Msg::Output(b.to_vec()));
                    }));
                }
                // Paths travel in batches: a message per path woke the caller's thread 270,000 times
                // on a wide tree, and the context switches cost more than the paths. An error goes at
                // once (`--exit-on-error` stops the others).
                let batch = RefCell::new(Vec::new());
                let flush = || {
                    let paths = std::mem::take(&mut *batch.borrow_mut());
                    if !paths.is_empty() {
                        let _ = tx.send(Msg::Paths(paths));
                    }
                };
                let r = ex.run(
                    &mut |p| {
                        let urgent = matches!(p.end, PathEnd::Error(_));
                        batch.borrow_mut().push(p.clone());
                        if urgent || batch.borrow().len() >= PATH_BATCH {
                            flush();
                        }
                        match pool.stopped() {
                            true => Control::Stop,
                            false => Control::Continue,
                        }
                    },
                    &mut |p| {
                        flush();
                        let _ = tx.send(Msg::Progress(id, *p));
                    },
                );
                flush();
                pool.leave();
                let _ = tx.send(Msg::Done(id, r));
            });
        }
        drop(tx);
        collect(&rx, jobs, &pool, on_path, on_output, on_progress)
    })
}

/// Hands the workers' messages to the callbacks and adds up their totals.
fn collect(
    rx: &mpsc::Receiver<Msg>,
    jobs: usize,
    pool: &Pool,
    on_path: &mut dyn FnMut(&FinishedPath) -> Control,
    on_output: &mut dyn FnMut(&[u8]),
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<Summary, End> {
    let mut progress = vec![Progress::default(); jobs];
    let mut results: Vec<Option<Result<Summary, End>>> = (0..jobs).map(|_| None).collect();
    let mut stopped = false;
    for msg in rx.iter() {
        match msg {
            Msg::Paths(ps) => {
                for p in &ps {
                    if !stopped && on_path(p) == Control::Stop {
                        stopped = true;
                        pool.halt(Halt::Stopped);
                    }
                }
            }
            Msg::Output(b) => on_output(&b),
            Msg::Progress(id, p) => {
                progress[id] = p;
                on_progress(&total_progress(&progress));
            }
            Msg::Done(id, r) => results[id] = Some(r),
        }
    }
    let mut total: Option<Summary> = None;
    for r in results.into_iter().flatten() {
        let s = r?;
        total = Some(match total {
            None => s,
            Some(t) => merge(t, s),
        });
    }
    let mut total = total.unwrap_or_default();
    if stopped {
        total.stopped_early = true;
        total.complete = false;
    }
    Ok(total)
}

fn total_progress(ps: &[Progress]) -> Progress {
    let mut t = Progress::default();
    for p in ps {
        t.paths += p.paths;
        t.live += p.live;
        t.queries += p.queries;
        t.blocks_covered = t.blocks_covered.max(p.blocks_covered);
        t.elapsed = t.elapsed.max(p.elapsed);
    }
    t
}

/// The totals of two workers of one exploration.
fn merge(mut a: Summary, b: Summary) -> Summary {
    a.completed += b.completed;
    a.errors += b.errors;
    a.cut += b.cut;
    a.infeasible += b.infeasible;
    a.silent_exits += b.silent_exits;
    a.unsupported += b.unsupported;
    for m in b.messages {
        if !a.messages.contains(&m) {
            a.messages.push(m);
        }
    }
    a.complete &= b.complete;
    a.incomplete_reasons.extend(b.incomplete_reasons);
    a.incomplete_reasons.sort();
    a.incomplete_reasons.dedup();
    a.stopped_early |= b.stopped_early;
    a.covered.extend(b.covered);
    a.blocks_covered = a.covered.len();
    a.blocks_total = a.blocks_total.max(b.blocks_total);
    a.queries += b.queries;
    a.solver_time += b.solver_time;
    for (x, y) in a.solver_layers.iter_mut().zip(b.solver_layers) {
        x.queries += y.queries;
        x.hits += y.hits;
        x.calls += y.calls;
        x.sat += y.sat;
        x.unsat += y.unsat;
        x.unknown += y.unknown;
        x.time += y.time;
        x.mismatches += y.mismatches;
    }
    a.time = a.time.max(b.time);
    a.instructions += b.instructions;
    a.validation_failures += b.validation_failures;
    a.replayed_instructions += b.replayed_instructions;
    a.unreplayed += b.unreplayed;
    a.states_taken += b.states_taken;
    a
}
