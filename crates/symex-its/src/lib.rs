//! Integer transition systems (ITS): the KoAT format, an interpreter, and termination and
//! runtime-bound provers (`symex its`).
//!
//! * [`Its`]: locations, program variables, transitions with guards, updates, temporaries
//!   and costs; [`parse_koat`] reads the competition's `.koat` files, [`print::to_koat`]
//!   prints them back and [`print::to_dot`] draws the location graph.
//! * [`interp`]: the reference semantics — runs on concrete start values.

pub mod interp;
pub mod its;
pub mod parse;
pub mod poly;
pub mod print;
pub mod smt;

pub use its::{Atom, Goal, Its, Rel, Transition};
pub use parse::{parse_koat, ParseError};
pub use poly::Poly;
pub mod bound;
pub mod complexity;
pub mod farkas;
pub mod graph;
pub mod local_size;
pub mod multiphase;
pub mod nontermination;
pub mod preprocess;
pub mod ranking;
pub mod termination;
