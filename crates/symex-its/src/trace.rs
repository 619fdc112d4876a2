//! Where `symex its` spends its time: an opt-in trace on stderr (`SYMEX_ITS_TRACE=1`), one
//! line per phase — preprocessing and its steps, the first attempt, each retry, the searches
//! for lower bounds — with its wall time, the CPU time of its thread and the solver queries
//! it asked. On a loaded machine wall time says little (a 60 s limit may be 5 s of CPU), and
//! the queries are the count the budgets use, so all three are printed. `SYMEX_ITS_TRACE=2`
//! also prints each SCC of each inference, `SYMEX_ITS_TRACE=3` each ranking step of an SCC's
//! proof (which synthesis, over how many transitions). Off (the default), a phase costs one load.

use std::cell::Cell;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The trace level from `SYMEX_ITS_TRACE` (0: off).
pub fn level() -> u8 {
    static LEVEL: OnceLock<u8> = OnceLock::new();
    *LEVEL.get_or_init(|| {
        std::env::var("SYMEX_ITS_TRACE")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    })
}

thread_local! {
    /// How many phases of this thread are open (the indentation of the next line).
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// A phase being measured; its line is printed when it is dropped.
#[must_use = "the phase ends when this guard is dropped"]
pub struct Phase {
    name: String,
    wall: Instant,
    cpu: Option<Duration>,
    queries: u64,
}

/// Starts the phase `name` when the trace is at least at `at` (1: phases, 2: SCCs too, 3: ranking steps too).
/// Its opening line is printed at once, so a run killed inside it shows where it was.
pub fn phase_at(at: u8, name: impl FnOnce() -> String) -> Option<Phase> {
    if level() < at {
        return None;
    }
    let name = name();
    let depth = DEPTH.with(|d| d.replace(d.get() + 1));
    eprintln!("[its] {:indent$}> {name}", "", indent = 2 * depth);
    Some(Phase {
        name,
        wall: Instant::now(),
        cpu: thread_cpu(),
        queries: crate::smt::queries(),
    })
}

/// [`phase_at`] level 1.
pub fn phase(name: &str) -> Option<Phase> {
    phase_at(1, || name.to_string())
}

/// Runs `f` as the phase `name`.
pub fn step<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let _phase = phase(name);
    f()
}

impl Drop for Phase {
    fn drop(&mut self) {
        let depth = DEPTH.with(|d| {
            d.set(d.get().saturating_sub(1));
            d.get()
        });
        let cpu = match (self.cpu, thread_cpu()) {
            (Some(a), Some(b)) => format!("{:.3} s", b.saturating_sub(a).as_secs_f64()),
            _ => "?".into(),
        };
        eprintln!(
            "[its] {:indent$}< {}: wall {:.3} s, cpu {cpu}, queries {}",
            "",
            self.name,
            self.wall.elapsed().as_secs_f64(),
            crate::smt::queries() - self.queries,
            indent = 2 * depth
        );
    }
}

/// Prints `what()` as a line of the open phase when the trace is on (a phase's outcome).
pub fn note(what: impl FnOnce() -> String) {
    if level() >= 1 {
        let depth = DEPTH.with(Cell::get);
        eprintln!("[its] {:indent$}= {}", "", what(), indent = 2 * depth);
    }
}

/// The CPU time this thread has used (Linux: `/proc/thread-self/schedstat`, nanoseconds on
/// a processor), `None` where that cannot be read. Z3 runs on the calling thread, so this
/// includes the solver's time.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}
