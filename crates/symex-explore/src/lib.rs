//! The symbolic executor of symex (`symex run`, `symex check`): KLEE's job on the reference semantics.
//!
//! * [`symbolic`]: the symbolic value domain (terms, path condition, fork requests);
//! * [`explore`]: the executor (snapshots, siblings, limits, tests of finished paths);
//! * [`searcher`]: which state runs next;
//! * [`parallel`]: one exploration on several threads, sharing work by path signatures;
//! * [`partition`]: the split of the tree's top among those threads;
//! * [`signature`]: a path as its decisions from the root, which rebuild its state;
//! * [`trace`]: block traces, and the traced concrete run that checks each test;
//! * [`coverage`]: line coverage in lcov format.
//!
//! The instruction semantics are `symex-engine`'s, unchanged: the concrete interpreter and this executor
//! run the same code over two value domains.

pub mod coverage;
pub mod explore;
pub mod ktest;
pub mod parallel;
pub mod partition;
pub mod searcher;
pub mod signature;
pub mod symbolic;
pub mod trace;

pub use explore::{
    Control, Explorer, FinishedPath, Limits, Options, PathEnd, ProgramArg, Progress, Summary,
};
pub use searcher::SearcherKind;
pub use signature::PathSignature;
pub use symbolic::{SolverCtx, Symbolic};
