//! The `symex` binary: argument parsing, output files, exit codes (the manual, `docs/src/`, describes them).
use clap::{CommandFactory, Parser, Subcommand};
use std::path::PathBuf;

mod bmc;
mod campaign;
mod chc;
mod check;
mod checks;
mod cost;
mod examples;
mod frontend;
mod fuzz;
mod input;
mod interrupt;
mod its;
mod its_recursion;
mod klee_out;
mod klee_stats;
mod limits;
mod main_args;
mod native;
mod portfolio;
mod property;
mod replay;
mod run;
mod task;
mod term;
mod term_invariants;
mod validate;
mod verify;
mod verify_run;
mod witness;
mod witness_correct;
mod witness_read;
mod witness_term;

#[derive(Parser)]
#[command(name = "symex", version, about = "Symbolic execution toolkit")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a program concretely on a test's inputs and report the outcome.
    #[command(after_long_help = examples::REPLAY)]
    Replay(replay::ReplayArgs),
    /// Verify an IDF program (implicit dynamic frames; the language: docs/src/concepts/idf-language.md).
    #[command(after_long_help = examples::VERIFY)]
    Verify(verify::VerifyArgs),
    /// Explore the paths of a C program symbolically, report bugs, write one test per path.
    #[command(after_long_help = examples::RUN)]
    Run(run::RunArgs),
    /// A campaign over Redis (`symex run --redis URL --campaign NAME`): its progress, its paths.
    #[command(after_long_help = examples::CAMPAIGN)]
    Campaign(campaign::CampaignArgs),
    /// Statistics of `symex run` (or KLEE) output directories, as klee-stats prints them.
    #[command(after_long_help = examples::STATS)]
    Stats(klee_stats::StatsArgs),
    /// One SV-COMP verdict (TRUE, FALSE, UNKNOWN) for a property of a C program.
    #[command(after_long_help = examples::CHECK)]
    Check(check::CheckArgs),
    /// Check another verifier's violation witness (GraphML 1.0 or YAML 2.0): confirmed, rejected or unknown.
    #[command(after_long_help = examples::VALIDATE)]
    Validate(validate::ValidateArgs),
    /// Whitebox fuzzing by generational search (SAGE) over the bytes the program reads.
    #[command(after_long_help = examples::FUZZ)]
    Fuzz(fuzz::FuzzArgs),
    /// Bounded model checking: loops and recursion unwound K times, one SMT query per property.
    #[command(after_long_help = examples::BMC)]
    Bmc(bmc::BmcArgs),
    /// Termination or a runtime bound of an integer transition system (KoAT format).
    #[command(after_long_help = examples::ITS)]
    Its(its::ItsArgs),
    /// Termination of a C program (symbolic execution graph → integer transition system).
    #[command(after_long_help = examples::TERM)]
    Term(term::TermArgs),
    /// A runtime bound of a C program in IR instructions (whole SEG → weighted ITS).
    #[command(after_long_help = examples::COST)]
    Cost(cost::CostArgs),
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell).
    #[command(after_long_help = examples::COMPLETIONS)]
    Completions {
        /// The shell the script is for.
        shell: clap_complete::Shell,
    },
    /// Write man pages (symex.1 and one per subcommand, symex-run.1, ...) into a directory.
    #[command(after_long_help = examples::MAN)]
    Man {
        /// The directory the pages go to (created if missing).
        dir: PathBuf,
    },
}

/// `symex completions SHELL`: the script on stdout.
fn completions(shell: clap_complete::Shell) -> i32 {
    clap_complete::generate(shell, &mut Cli::command(), "symex", &mut std::io::stdout());
    0
}

/// `symex man DIR`: `symex.1` and `symex-SUBCOMMAND.1`, generated from the same clap description as
/// `--help`.
fn man_pages(dir: &std::path::Path) -> i32 {
    let written =
        std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(Cli::command(), dir));
    match written {
        Ok(()) => {
            println!("man pages written to {}", dir.display());
            0
        }
        Err(e) => {
            eprintln!(
                "symex: error: cannot write man pages to {}: {e}",
                dir.display()
            );
            2
        }
    }
}

impl Command {
    /// The `--max-time` budget, counted from process start for every stage of the subcommand.
    fn max_time(&self) -> Option<std::time::Duration> {
        match self {
            Command::Replay(a) => a.max_time,
            Command::Verify(a) => a.max_time,
            Command::Run(a) => a.explore.max_time,
            Command::Stats(_) | Command::Campaign(_) => None,
            Command::Check(a) => a.explore.max_time,
            Command::Validate(a) => a.explore.max_time,
            Command::Fuzz(a) => a.max_time,
            Command::Bmc(a) => a.max_time,
            Command::Its(a) => a.max_time,
            Command::Term(a) => a.max_time,
            Command::Cost(a) => a.max_time,
            Command::Completions { .. } | Command::Man { .. } => None,
        }
    }
}

/// Output piped into `head` and the like must end the process quietly, as it does for C tools,
/// instead of making every `println!` panic on the closed pipe.
impl Command {
    fn solver_rlimit(&self) -> Option<u32> {
        match self {
            Command::Verify(a) => a.solver_rlimit,
            Command::Run(a) => a.explore.solver_rlimit,
            Command::Check(a) => a.explore.solver_rlimit,
            Command::Validate(a) => a.explore.solver_rlimit,
            Command::Fuzz(a) => a.solver_rlimit,
            Command::Bmc(a) => a.solver_rlimit,
            Command::Its(a) => a.solver_rlimit,
            Command::Term(a) => a.solver_rlimit,
            Command::Cost(a) => a.solver_rlimit,
            Command::Replay(_)
            | Command::Stats(_)
            | Command::Campaign(_)
            | Command::Completions { .. }
            | Command::Man { .. } => None,
        }
    }
}

fn restore_default_sigpipe() {
    // SAFETY: resetting a signal disposition to its default before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The positional files of `command` and the kind each must be.
fn input_files(command: &Command) -> Vec<(&std::path::Path, input::Kind)> {
    use input::Kind;
    match command {
        Command::Replay(a) => vec![(&a.file, Kind::Program), (&a.test, Kind::Test)],
        Command::Verify(a) => vec![(&a.file, Kind::Idf)],
        Command::Run(a) => vec![(&a.file, Kind::Program)],
        Command::Stats(_) | Command::Campaign(_) => Vec::new(),
        Command::Check(a) => vec![(&a.file, Kind::ProgramOrTask)],
        Command::Validate(a) => vec![(&a.file, Kind::ProgramOrTask)],
        Command::Fuzz(a) => vec![(&a.file, Kind::Program)],
        Command::Bmc(a) => vec![(&a.file, Kind::Program)],
        Command::Its(a) => vec![(&a.file, Kind::Its)],
        Command::Term(a) => vec![(&a.file, Kind::Program)],
        Command::Cost(a) => vec![(&a.file, Kind::Program)],
        Command::Completions { .. } | Command::Man { .. } => Vec::new(),
    }
    .into_iter()
    .map(|(f, k)| (f.as_path(), k))
    .collect()
}

fn main() {
    limits::mark_start();
    restore_default_sigpipe();
    let cli = Cli::parse();
    for (file, kind) in input_files(&cli.command) {
        if let Err(e) = input::check(file, kind) {
            eprintln!("symex: error: {e}");
            std::process::exit(2);
        }
    }
    limits::set_max_time(cli.command.max_time());
    // Every solver the subcommand builds, however deep in its libraries, starts from it.
    symex_solver::set_default_rlimit(cli.command.solver_rlimit());
    let status = match cli.command {
        Command::Replay(args) => replay::main(args),
        Command::Verify(args) => verify::run(&args),
        Command::Run(args) => run::main(args),
        Command::Stats(args) => klee_stats::main(args),
        Command::Campaign(args) => campaign::main(args),
        Command::Check(args) => check::main(args),
        Command::Validate(args) => validate::main(args),
        Command::Its(args) => its::main(args),
        Command::Term(args) => term::main(args),
        Command::Cost(args) => cost::main(args),
        Command::Fuzz(args) => fuzz::main(args),
        Command::Bmc(args) => bmc::main(args),
        Command::Completions { shell } => completions(shell),
        Command::Man { dir } => man_pages(&dir),
    };
    std::process::exit(status);
}
