//! Building a solver chain from switches.

use std::time::Duration;

use crate::solver::Solver;
use crate::stats::Timed;
use crate::z3::{Z3Mode, Z3Solver};

/// Which layers to stack around Z3. Fields may be added over time; start from
/// `SolverConfig::default()` and set what you need.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SolverConfig {
    /// Time limit per Z3 call (`None`: none). Running out answers `Unknown`.
    pub timeout: Option<Duration>,
    /// How Z3 is used between queries.
    pub z3_mode: Z3Mode,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            timeout: None,
            z3_mode: Z3Mode::Fresh,
        }
    }
}

impl SolverConfig {
    /// Sets the time limit per Z3 call.
    pub fn timeout(mut self, t: Option<Duration>) -> Self {
        self.timeout = t;
        self
    }

    /// Sets how Z3 is used between queries.
    pub fn z3_mode(mut self, mode: Z3Mode) -> Self {
        self.z3_mode = mode;
        self
    }

    /// Builds the chain, outermost layer first: statistics, then Z3.
    pub fn build(&self) -> Box<dyn Solver> {
        let mut z3 = Z3Solver::with_mode(self.z3_mode);
        z3.set_timeout(self.timeout);
        let chain: Box<dyn Solver> = Box::new(z3);
        Box::new(Timed::new("total", chain))
    }
}
