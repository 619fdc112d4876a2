//! `symex fuzz`: whitebox fuzzing by generational search (SAGE; Godefroid, Levin, Molnar, NDSS 2008).
//!
//! * [`concolic`]: the concolic value domain (concrete value + term) over which the interpreter's own
//!   instruction semantics run one input and record its path condition, without forking;
//! * [`run`]: one concolic run (blocks entered, conjuncts labelled with their block, crash call stack);
//! * [`search`]: the generational search (`GenerateInputs`, `ExpandExecution`, `Score`, `bound`);
//! * [`mutate`]: havoc, splice and the program's dictionary, for when the solver stalls;
//! * [`sync`]: hybrid fuzzing with AFL++ through its sync directory;
//! * [`work_list`]: the work list the workers of `--jobs N` share, with owner affinity;
//! * [`campaign`]: the work list a campaign of processes shares (implemented over Redis elsewhere).

pub mod campaign;
pub mod concolic;
pub mod mutate;
pub mod run;
pub mod search;
pub mod sync;
pub mod work_list;

pub use concolic::{Concolic, Conjunct, ConjunctKind};
pub use run::{concolic_run, concrete_run, ConcolicRun, RunConfig};
pub use search::{coverage_counts, Crash, Event, FuzzOptions, Fuzzer, Stats};
pub use sync::AflSync;
