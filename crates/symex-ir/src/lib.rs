//! Lowers clang-14 LLVM IR into symex's compact IR.
//!
//! [`ir`] defines the IR every analysis executes.

pub mod ir;

pub use ir::*;
