//! The `symex` binary: argument parsing, output files, exit codes (see `spec/cli.md`).
use clap::{Parser, Subcommand};

mod bmc;
mod check;
mod checks;
mod frontend;
mod its;
mod native;
mod replay;
mod run;
mod verify;
mod verify_run;

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
    /// Verify an IDF program (implicit dynamic frames, `spec/idf-language.md`).
    Verify(verify::VerifyArgs),
    /// Explore the paths of a C program symbolically, report bugs, write one test per path.
    Run(run::RunArgs),
    /// One SV-COMP verdict (TRUE, FALSE, UNKNOWN) for a property of a C program.
    Check(check::CheckArgs),
    /// Bounded model checking: loops and recursion unwound K times, one SMT query per property.
    Bmc(bmc::BmcArgs),
    /// Termination or a runtime bound of an integer transition system (KoAT format).
    Its(its::ItsArgs),
}

/// Output piped into `head` and the like must end the process quietly, as it does for C tools,
/// instead of making every `println!` panic on the closed pipe.
fn restore_default_sigpipe() {
    // SAFETY: resetting a signal disposition to its default before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() {
    restore_default_sigpipe();
    let cli = Cli::parse();
    let status = match cli.command {
        Command::Replay(args) => replay::main(args),
        Command::Verify(args) => verify::run(&args),
        Command::Run(args) => run::main(args),
        Command::Check(args) => check::main(args),
        Command::Its(args) => its::main(args),
        Command::Bmc(args) => bmc::main(args),
    };
    std::process::exit(status);
}
