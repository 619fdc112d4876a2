//! Hash-consed terms: the language every analysis speaks to the solver.
//!
//! * **Sorts** ([`Sort`]): `Bool`, `BitVec(1..=128)`, `Int`, arrays `BitVec -> BitVec`, arrays
//!   between any two sorts ([`Sort::map`]), and
//!   uninterpreted sorts ([`Sort::uninterpreted`]); uninterpreted functions are [`Func`]s.
//! * **Terms** ([`Term`]) are hash-consed in one process-wide table: structurally equal terms
//!   are the same node, so `==`, hashing and cloning are O(1), and terms are `Send + Sync`.
//!   No interner is passed around: build terms anywhere, from any thread. Nodes are freed
//!   when their last handle is dropped.
//! * **Smart constructors** (the methods of [`Term`], e.g. [`Term::bvadd`]) fold constants
//!   exactly and apply cheap rewrites (neutral/absorbing elements, double negation,
//!   extract of concat, `ite` with constant or equal branches, `select` over `store`, a term
//!   compared with itself, constants on the left). [`Term::new_raw`] skips them.
//! * **Evaluation** ([`Model::eval`]) with exact SMT-LIB semantics (division by zero
//!   included), **free variables** ([`Term::free_vars`]), **substitution**, and **SMT-LIB2
//!   printing** ([`to_smtlib2`], `Display`).
//!
//! Sort errors in the operator methods are programming errors and panic with a message;
//! [`Term::try_new`] returns a [`SortError`] instead.
//!
//! ```
//! use symex_expr::{Model, Sort, Term, Value};
//!
//! let x = Term::var("x", Sort::bv(8));
//! let y = Term::var("y", Sort::bv(8));
//! // Hash-consing: the same structure is the same term.
//! assert_eq!(x.bvadd(&y), x.bvadd(&y));
//! // Smart constructors fold and rewrite.
//! assert_eq!(x.bvadd(&Term::bv(0, 8)), x);
//! assert!(x.bvult(&x).is_false());
//! assert_eq!(Term::bv(7, 8).bvudiv(&Term::bv(0, 8)), Term::bv(0xff, 8));
//!
//! let c = x.bvadd(&Term::bv(1, 8)).eq(&y); // rewritten to 1 + x = y
//! let mut m = Model::new();
//! m.insert(&x, Value::Bv { value: 41, width: 8 });
//! m.insert(&y, Value::Bv { value: 42, width: 8 });
//! assert_eq!(m.eval_bool(&c), Ok(true));
//! assert!(symex_expr::to_smtlib2(&[c]).contains("(declare-fun x () (_ BitVec 8))"));
//!
//! // Uninterpreted sorts and functions (the IDF verifier's `ref` and snapshots).
//! let r = Sort::uninterpreted("ref");
//! let f = symex_expr::Func::new("f", &[r], Sort::Int);
//! let a = Term::var("a", r);
//! assert_eq!(Term::apply(f, &[a.clone()]).sort(), Sort::Int);
//! ```

mod build;
pub mod bvsem;
mod eval;
mod intern;
mod ops;
mod range;
mod smtlib;
mod sort;
mod term;
mod typing;
mod value;
mod vars;
pub mod visit;

pub use eval::{apply as apply_op, EvalError, FuncInterp, Model};
pub use intern::{nodes_alive, nodes_created};
pub use range::unsigned as unsigned_range;
pub use rustc_hash::FxHashMap as TermMap;
pub use smtlib::{symbol as smtlib_symbol, to_smtlib2};
pub use sort::{Func, FuncDecl, MapSort, Sort, USort, MAX_BV_WIDTH};
pub use term::{Op, Term};
pub use typing::SortError;
pub use value::{ArrayValue, MapValue, Value};
pub use vars::{free_vars, funcs_used, substitute_all};
