//! The `symex` binary: argument parsing, output files, exit codes (see `spec/cli.md`).
use clap::{Parser, Subcommand};

mod frontend;
mod replay;

#[derive(Parser)]
#[command(name = "symex", version, about = "Symbolic execution toolkit")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a program concretely on a test's inputs and report the outcome.
    Replay(replay::ReplayArgs),
}

fn main() {
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Replay(args) => replay::main(args),
    };
    std::process::exit(status);
}
