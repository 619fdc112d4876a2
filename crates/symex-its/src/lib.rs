//! Integer transition systems (ITS): the KoAT format, an interpreter, and termination and
//! runtime-bound provers (`symex its`).
//!
//! * [`Its`]: locations, program variables, transitions with guards, updates, temporaries
//!   and costs; [`parse_koat`] reads the competition's `.koat` files, [`print::to_koat`]
//!   prints them back and [`print::to_dot`] draws the location graph.
//! * [`interp`]: the reference semantics — runs on concrete start values.
//! * [`preprocess`]: `≠` splitting, unsatisfiable transitions, unreachable locations,
//!   slicing, linear invariants (checked inductive by Z3), chaining, and unfolding by the
//!   last transition (a refinement [`complexity::infer_refining`] retries with).
//! * [`termination`]: SCCs ([`graph`]), linear ranking functions by Farkas' lemma
//!   ([`farkas`]) re-checked by [`ranking::check`], lexicographic removal, multiphase
//!   functions of depth 2–4 ([`multiphase`]); [`nontermination`]: recurrent sets with witnesses
//!   (also from the cycles of concrete runs, [`recurrent`]).
//! * [`complexity`]: KoAT's alternating runtime and size bounds ([`bound`],
//!   [`local_size`]); [`lower_bound`]: proofs that no bound exists (runs of every length).
//!
//! Guards, updates and bounds are [`Poly`]nomials; every solver question is asked on
//! `symex-expr` integer terms through `symex-solver` ([`smt`]).

pub mod bound;
pub mod clamped_ranking;
pub mod closed_form;
pub mod closed_set;
pub mod complexity;
pub mod exp_bound;
pub mod exp_size;
pub mod farkas;
pub mod few_steps;
pub mod first_step;
pub mod graph;
pub mod inescapable;
pub mod interp;
pub mod its;
pub mod linear_lower_bound;
pub mod linear_twn;
pub mod local_size;
pub mod lower_bound;
pub mod monomial_relaxation;
pub mod multiphase;
pub mod nested_lower_bound;
pub mod nontermination;
pub mod parse;
pub mod periodic_size;
pub mod poly;
pub mod preprocess;
pub mod print;
pub mod quadratic_guard;
pub mod ranking;
pub mod ratio;
pub mod recurrent;
pub mod recursion;
pub mod scc_size;
pub mod scoped_flag;
pub mod size_graph;
pub mod smt;
pub mod termcomp;
pub mod termination;
pub mod trace;
pub mod twn;
pub mod word_size;

pub use its::{Atom, Goal, Its, Rel, Transition};
pub use parse::{parse_koat, ParseError};
pub use poly::Poly;
