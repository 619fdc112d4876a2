//! Building a solver chain from switches.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use crate::cex_cache::CexCache;
use crate::independence::Independence;
use crate::log::QueryLog;
use crate::query_cache::QueryCache;
use crate::solver::Solver;
use crate::stats::Timed;
use crate::validating::Validating;
use crate::z3::{Z3Mode, Z3Solver};

/// Which layers to stack around Z3. Fields may be added over time; start from
/// `SolverConfig::default()` (every optimisation on, no validation, no log, no time limit,
/// the resource limit of [`set_default_rlimit`]) and set what you need.
///
/// The chain, outermost first: `total` statistics, validating, independence, query cache,
/// counterexample cache, query log, Z3 (KLEE's order).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SolverConfig {
    /// Time limit per Z3 call (`None`: none). Running out answers `Unknown`.
    pub timeout: Option<Duration>,
    /// Z3's deterministic resource limit per Z3 call (`None`: none). Running out answers
    /// `Unknown`, independently of the machine's load.
    pub rlimit: Option<u32>,
    /// How Z3 is used between queries.
    pub z3_mode: Z3Mode,
    /// Split queries into independent groups of constraints.
    pub independence: bool,
    /// Answer repeated constraint sets from a cache.
    pub query_cache: bool,
    /// Reuse models and unsat sets of subsets and supersets.
    pub cex_cache: bool,
    /// Cross-check every answer against a second, bare Z3 (slow; for debugging).
    pub validate: bool,
    /// Write the queries that reach Z3 to this file as SMT-LIB2.
    pub log: Option<PathBuf>,
    /// Under a resource limit, ask Z3's nlsat procedure about nonlinear integer queries as well:
    /// its unsat first, its model where the default solver decides nothing
    /// (`Z3Solver::set_nlsat_fallback`).
    pub nlsat_fallback: bool,
}

/// The process-wide resource limit new configurations start with (0: none).
static DEFAULT_RLIMIT: AtomicU32 = AtomicU32::new(0);

/// Sets the resource limit that every configuration made from now on starts with
/// (`SolverConfig::default()`, `bare()`): a program-wide switch such as `--solver-rlimit`
/// then reaches the solvers its libraries build deep inside. `None`: no limit.
pub fn set_default_rlimit(rlimit: Option<u32>) {
    DEFAULT_RLIMIT.store(rlimit.unwrap_or(0), Ordering::Relaxed);
}

impl Default for SolverConfig {
    fn default() -> Self {
        let rlimit = DEFAULT_RLIMIT.load(Ordering::Relaxed);
        SolverConfig {
            timeout: None,
            rlimit: (rlimit > 0).then_some(rlimit),
            z3_mode: Z3Mode::Incremental,
            independence: true,
            query_cache: true,
            cex_cache: true,
            validate: false,
            log: None,
            nlsat_fallback: false,
        }
    }
}

impl SolverConfig {
    /// Only Z3 (with the `total` statistics): every layer off.
    pub fn bare() -> Self {
        SolverConfig {
            independence: false,
            query_cache: false,
            cex_cache: false,
            ..SolverConfig::default()
        }
    }

    /// Sets the time limit per Z3 call.
    pub fn timeout(mut self, t: Option<Duration>) -> Self {
        self.timeout = t;
        self
    }

    /// Sets Z3's resource limit per Z3 call.
    pub fn rlimit(mut self, r: Option<u32>) -> Self {
        self.rlimit = r;
        self
    }

    /// Sets how Z3 is used between queries.
    pub fn z3_mode(mut self, mode: Z3Mode) -> Self {
        self.z3_mode = mode;
        self
    }

    /// Switches the independence layer.
    pub fn independence(mut self, on: bool) -> Self {
        self.independence = on;
        self
    }

    /// Switches the query cache.
    pub fn query_cache(mut self, on: bool) -> Self {
        self.query_cache = on;
        self
    }

    /// Switches the counterexample cache.
    pub fn cex_cache(mut self, on: bool) -> Self {
        self.cex_cache = on;
        self
    }

    /// Switches validation against a bare Z3.
    pub fn validate(mut self, on: bool) -> Self {
        self.validate = on;
        self
    }

    /// Logs the queries reaching Z3 to `path`.
    pub fn log(mut self, path: Option<PathBuf>) -> Self {
        self.log = path;
        self
    }

    /// Under a resource limit, asks Z3's nlsat procedure about nonlinear integer queries as well
    /// (its unsat first, its model where the default solver decides nothing).
    pub fn nlsat_fallback(mut self, on: bool) -> Self {
        self.nlsat_fallback = on;
        self
    }

    /// Builds the chain; fails only when the log file cannot be created.
    pub fn try_build(&self) -> io::Result<Box<dyn Solver>> {
        let log = match &self.log {
            Some(p) => Some(
                File::create(p)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", p.display())))?,
            ),
            None => None,
        };
        Ok(self.chain(log))
    }

    /// Builds the chain. A log file that cannot be created is reported on stderr and
    /// skipped.
    pub fn build(&self) -> Box<dyn Solver> {
        match self.try_build() {
            Ok(s) => s,
            Err(e) => {
                eprintln!("symex-solver: no query log: {e}");
                self.clone().log(None).chain(None)
            }
        }
    }

    fn chain(&self, log: Option<File>) -> Box<dyn Solver> {
        let mut z3 = Z3Solver::with_mode(self.z3_mode);
        z3.set_timeout(self.timeout);
        z3.set_rlimit(self.rlimit);
        z3.set_nlsat_fallback(self.nlsat_fallback);
        let mut s: Box<dyn Solver> = Box::new(z3);
        if let Some(f) = log {
            s = Box::new(QueryLog::new(s, Box::new(BufWriter::new(f))));
        }
        if self.cex_cache {
            s = Box::new(CexCache::new(s));
        }
        if self.query_cache {
            s = Box::new(QueryCache::new(s));
        }
        if self.independence {
            s = Box::new(Independence::new(s));
        }
        if self.validate {
            let mut oracle = Z3Solver::new();
            oracle.set_timeout(self.timeout);
            oracle.set_rlimit(self.rlimit);
            s = Box::new(Validating::new(s, oracle));
        }
        Box::new(Timed::new("total", s))
    }
}
