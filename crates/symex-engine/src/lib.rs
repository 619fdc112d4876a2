//! States, memory, instruction semantics and libc models: the concrete interpreter and (later) the
//! symbolic executor.
//!
//! The semantics ([`exec`], [`call`], [`access`], [`hooks`]) are written once over a value [`domain::Domain`];
//! [`concrete::Concrete`] makes them the concrete interpreter ([`interp`]), symbolic domains will make
//! them the symbolic executor.

pub mod access;
mod atexit;
pub mod budget;
pub mod bug;
mod call;
pub mod concrete;
pub mod domain;
mod escape;
pub mod exec;
pub mod guide;
pub mod hooks;
pub mod interp;
pub mod invariant;
mod leak;
pub mod memory;
pub mod printf;
pub mod program;
pub mod promote;
pub mod provenance;
mod reclaim;
pub mod regs;
pub mod stack;
pub mod state;
pub mod stdin;
pub mod storage;
pub mod symargs;
pub mod symfile;
#[cfg(test)]
mod test_rng;
pub mod testfile;
mod vector;

pub use bug::{Bug, BugKind, End, Halt, SourceLoc, STACK_LIMIT_MESSAGE};
pub use interp::{outcome, run, RunOptions, RunResult};
pub use invariant::{LinearCandidate, LinearTerm, LoopInvariant};
pub use program::Program;
pub use state::{Checks, State, ARGC_INPUT, OVERSHIFT_MESSAGE};
pub use testfile::{Outcome, TestFile, TestInput};
