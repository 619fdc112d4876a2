//! The `symex` binary: argument parsing, output files, exit codes (see `spec/cli.md`).
use clap::Parser;

#[derive(Parser)]
#[command(name = "symex", version, about = "Symbolic execution toolkit")]
struct Cli {}

fn main() {
    let _ = Cli::parse();
}
