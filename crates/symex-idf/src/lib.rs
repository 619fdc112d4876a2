//! The implicit-dynamic-frames verifier of `spec/idf-language.md`: Smans, Jacobs and Piessens,
//! *Symbolic Execution for Implicit Dynamic Frames*.
//!
//! Pipeline: [`syntax`] (lexer, parser) → [`check`] (names, types, lowering to [`ir`]) → the
//! verifier.
pub mod check;
pub mod diagnostics;
pub mod ir;
pub mod syntax;

pub use diagnostics::Diagnostic;

/// Parses and checks a program: the front end of `symex verify`.
pub fn front_end(src: &str) -> Result<ir::Program, Diagnostic> {
    let ast = syntax::parse_program(src)?;
    check::check_program(&ast)
}
