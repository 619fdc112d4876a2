//! The `Solver` trait and its layers around Z3.
