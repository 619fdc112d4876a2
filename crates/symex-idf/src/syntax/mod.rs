//! Concrete syntax: tokens, the surface tree and the parser.
pub mod ast;
pub mod lexer;
pub mod parser;

pub use parser::parse_program;
