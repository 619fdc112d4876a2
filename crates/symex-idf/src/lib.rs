//! The implicit-dynamic-frames verifier of `spec/idf-language.md`: Smans, Jacobs and Piessens,
//! *Symbolic Execution for Implicit Dynamic Frames*.
//!
//! Pipeline: [`syntax`] (lexer, parser) → [`check`] (names, types, lowering to [`ir`]) → the
//! verifier.
pub mod check;
pub mod diagnostics;
pub mod ir;
pub mod run;
pub mod syntax;
pub mod verify;

pub use diagnostics::Diagnostic;

/// Parses and checks a program: the front end of `symex verify`. Parsing and checking recurse
/// over the program's nesting, so they run on a thread with a large stack, as the verifier does.
pub fn front_end(src: &str) -> Result<ir::Program, Diagnostic> {
    verify::on_large_stack("idf-front-end", || {
        let ast = syntax::parse_program(src)?;
        check::check_program(&ast)
    })
}

/// Parses, checks and verifies a program (`symex verify`): `Err` for a syntax or type error.
pub fn verify_source(src: &str, config: verify::Config) -> Result<verify::Report, Diagnostic> {
    let program = front_end(src)?;
    Ok(verify::run(program, src, config))
}
