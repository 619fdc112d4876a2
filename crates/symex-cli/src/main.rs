//! The `symex` binary: argument parsing, output files, exit codes (see `spec/cli.md`).
use clap::{Parser, Subcommand};

mod bmc;
mod check;
mod checks;
mod cost;
mod frontend;
mod fuzz;
mod its;
mod limits;
mod native;
mod portfolio;
mod replay;
mod run;
mod task;
mod term;
mod verify;
mod verify_run;
mod witness;

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
    /// Verify an IDF program (implicit dynamic frames; the language: docs/src/concepts/idf-language.md).
    Verify(verify::VerifyArgs),
    /// Explore the paths of a C program symbolically, report bugs, write one test per path.
    Run(run::RunArgs),
    /// One SV-COMP verdict (TRUE, FALSE, UNKNOWN) for a property of a C program.
    Check(check::CheckArgs),
    /// Whitebox fuzzing by generational search (SAGE) over the bytes the program reads.
    Fuzz(fuzz::FuzzArgs),
    /// Bounded model checking: loops and recursion unwound K times, one SMT query per property.
    Bmc(bmc::BmcArgs),
    /// Termination or a runtime bound of an integer transition system (KoAT format).
    Its(its::ItsArgs),
    /// Termination of a C program (symbolic execution graph → integer transition system).
    Term(term::TermArgs),
    /// A runtime bound of a C program in IR instructions (whole SEG → weighted ITS).
    Cost(cost::CostArgs),
}

impl Command {
    /// The `--max-time` budget, counted from process start for every stage of the subcommand.
    fn max_time(&self) -> Option<std::time::Duration> {
        match self {
            Command::Replay(a) => a.max_time,
            Command::Verify(a) => a.max_time,
            Command::Run(a) => a.explore.max_time,
            Command::Check(a) => a.explore.max_time,
            Command::Fuzz(a) => a.max_time,
            Command::Bmc(a) => a.max_time,
            Command::Its(a) => a.max_time,
            Command::Term(a) => a.max_time,
            Command::Cost(a) => a.max_time,
        }
    }
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
    limits::mark_start();
    restore_default_sigpipe();
    let cli = Cli::parse();
    limits::set_max_time(cli.command.max_time());
    let status = match cli.command {
        Command::Replay(args) => replay::main(args),
        Command::Verify(args) => verify::run(&args),
        Command::Run(args) => run::main(args),
        Command::Check(args) => check::main(args),
        Command::Its(args) => its::main(args),
        Command::Term(args) => term::main(args),
        Command::Cost(args) => cost::main(args),
        Command::Fuzz(args) => fuzz::main(args),
        Command::Bmc(args) => bmc::main(args),
    };
    std::process::exit(status);
}
