//! The input-file mistakes a new user makes — a path that does not exist, a file of another kind than the
//! subcommand reads, a `.koat` given to `check` — found before any work starts, with what to do instead.

use std::path::Path;

/// The kind of file a subcommand's positional argument must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// C (`.c`, `.i`) or LLVM (`.ll`, `.bc`).
    Program,
    /// A program, or an SV-COMP task-definition file (`.yml`) naming one (`check`).
    ProgramOrTask,
    /// An integer transition system in the KoAT format.
    Its,
    /// An IDF program.
    Idf,
    /// A test file (JSON) of `run`, `check`, `bmc` or `fuzz`.
    Test,
}

impl Kind {
    fn extensions(self) -> &'static [&'static str] {
        match self {
            Kind::Program => &["c", "i", "ll", "bc"],
            Kind::ProgramOrTask => &["c", "i", "ll", "bc", "yml", "yaml"],
            Kind::Its => &["koat"],
            Kind::Idf => &["idf"],
            Kind::Test => &["json", "ktest"],
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Kind::Program => "a C program (.c, .i) or LLVM (.ll, .bc)",
            Kind::ProgramOrTask => {
                "a C program (.c, .i), LLVM (.ll, .bc) or an SV-COMP task-definition file (.yml)"
            }
            Kind::Its => "an integer transition system in the KoAT format (.koat)",
            Kind::Idf => "an IDF program (.idf)",
            Kind::Test => "a test file (.json, or KLEE's .ktest)",
        }
    }
}

/// What the subcommands that read `ext` files do with them: the advice for a file given to the wrong one.
fn which_subcommand(ext: &str, file: &Path) -> Option<String> {
    let f = file.display();
    Some(match ext {
        "koat" => format!(
            "it is an integer transition system: `symex its {f}` proves termination or a runtime bound"
        ),
        "idf" => format!("it is an IDF program: `symex verify {f}` verifies it"),
        "c" | "i" | "ll" | "bc" => format!(
            "it is a program: `symex run {f}` explores it, `symex check --property P {f}` gives a verdict, \
             `symex term {f}` and `symex cost {f}` prove termination and bounds"
        ),
        "prp" => format!(
            "it is an SV-COMP property file: give it as `--property {f}` and the program as the FILE argument"
        ),
        "json" => format!("it looks like a test: `symex replay PROGRAM {f}` runs it"),
        "yml" | "yaml" => format!("it is an SV-COMP task definition: `symex check {f}` checks its properties"),
        _ => return None,
    })
}

/// Checks that `file` exists and is of `kind`; the error is the message to print (exit status 2).
pub fn check(file: &Path, kind: Kind) -> Result<(), String> {
    let f = file.display();
    if !file.exists() {
        let cwd = std::env::current_dir()
            .map(|d| format!(" (relative paths start at {})", d.display()))
            .unwrap_or_default();
        let hint = if kind == Kind::Test {
            "; `symex run`, `check`, `bmc` and `fuzz` write tests into their output directory, \
             e.g. symex-out-last/test000001.json"
        } else {
            ""
        };
        return Err(format!("{f}: no such file{cwd}{hint}"));
    }
    if file.is_dir() {
        return Err(format!("{f} is a directory; expected {}", kind.describe()));
    }
    let ext = file
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    // A test may have any name (`fuzz` writes `crashNNNNNN.json` next to the raw `.bin`); only a file of
    // another known kind, e.g. the program and the test swapped, is refused.
    let lenient = kind == Kind::Test && which_subcommand(&ext, file).is_none();
    if kind.extensions().contains(&ext.as_str()) || lenient {
        return Ok(());
    }
    let advice = which_subcommand(&ext, file)
        .map(|a| format!(": {a}"))
        .unwrap_or_default();
    Err(format!("{f}: expected {}{advice}", kind.describe()))
}
