//! Lowering tests, one module per instruction family (they need `clang-14` on the PATH).

mod arith;
mod calls;
mod common;
mod control;
mod csmith;
mod errors;
mod globals;
mod layout;
mod memory;
mod vectors;
