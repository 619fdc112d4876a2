//! What an SV-COMP property means, in one place for `check`, `bmc` and `check`'s portfolio: its name and
//! `.prp` file, which bug kinds violate it and which only end a run, the program as it is run for it, and
//! the inputs on which it is declined (answered UNKNOWN) rather than decided.

use std::path::Path;
use symex_bmc::Class;
use symex_engine::{BugKind, Program};
use symex_ir::Module;

/// The properties `check` decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    UnreachCall,
    ValidMemsafety,
    ValidMemcleanup,
    NoOverflow,
    Termination,
    /// No undefined behaviour. Only its violations are decided: a `FALSE` for each kind of undefined
    /// behaviour symex checks; never `TRUE`, since other kinds are not checked ([`Property::proves`]).
    DefBehavior,
}

impl Property {
    pub fn name(self) -> &'static str {
        match self {
            Property::UnreachCall => "unreach-call",
            Property::ValidMemsafety => "valid-memsafety",
            Property::ValidMemcleanup => "valid-memcleanup",
            Property::NoOverflow => "no-overflow",
            Property::Termination => "termination",
            Property::DefBehavior => "def-behavior",
        }
    }

    /// The engine's checks the property asks for (beside them a run may need others, e.g. `argc`).
    pub fn checks(self) -> symex_engine::Checks {
        symex_engine::Checks {
            overflow: self.checks_overflow(),
            leaks: self == Property::ValidMemsafety,
            cleanup: self == Property::ValidMemcleanup,
            overshift: self == Property::DefBehavior,
            ..symex_engine::Checks::default()
        }
    }

    /// Whether signed overflow (and clang's shift checks) is part of the property.
    pub fn checks_overflow(self) -> bool {
        matches!(self, Property::NoOverflow | Property::DefBehavior)
    }

    /// Whether a complete search without a violation proves the property: not for `def-behavior`, whose
    /// undefined behaviour includes kinds no engine here checks (reads of uninitialised memory,
    /// unsequenced side effects, strict aliasing, ...).
    pub fn proves(self) -> bool {
        self != Property::DefBehavior
    }

    /// The property an SV-COMP specification names (a `.prp` file's text, a witness's `specification`).
    pub fn from_specification(text: &str) -> Option<Property> {
        if text.contains("def-behavior") {
            Some(Property::DefBehavior)
        } else if text.contains("call(reach_error())") || text.contains("call(__VERIFIER_error())")
        {
            Some(Property::UnreachCall)
        } else if text.contains("valid-deref")
            || text.contains("valid-free")
            || text.contains("valid-memtrack")
        {
            // A memory-safety file may also name valid-memcleanup (the subset's valid-memsafety.prp does):
            // its verdicts are still memory safety's, with valid-memtrack for a lost block.
            Some(Property::ValidMemsafety)
        } else if text.contains("valid-memcleanup") {
            Some(Property::ValidMemcleanup)
        } else if text.contains("overflow") {
            Some(Property::NoOverflow)
        } else if text.contains("F end") {
            Some(Property::Termination)
        } else {
            None
        }
    }

    /// A property name, or the path of an SV-COMP `.prp` file.
    pub fn parse(s: &str) -> Result<Property, String> {
        match s {
            "unreach-call" => return Ok(Property::UnreachCall),
            "valid-memsafety" => return Ok(Property::ValidMemsafety),
            "valid-memcleanup" => return Ok(Property::ValidMemcleanup),
            "no-overflow" => return Ok(Property::NoOverflow),
            "termination" => return Ok(Property::Termination),
            "def-behavior" => return Ok(Property::DefBehavior),
            _ => {}
        }
        let text = std::fs::read_to_string(s).map_err(|e| {
            format!("`{s}` is neither a property (unreach-call, valid-memsafety, valid-memcleanup, no-overflow, termination, def-behavior) nor a readable .prp file: {e}")
        })?;
        Property::from_specification(&text)
            .ok_or_else(|| format!("{s}: no SV-COMP property symex checks in `{}`", text.trim()))
    }
}

/// What a path's bug means for the property.
pub enum Meaning {
    /// A violation, with the SV-COMP subproperty for memory safety.
    Violation(Option<&'static str>),
    /// The program ends there (abort, a failed assert) and nothing is violated.
    End,
    /// Undefined behaviour outside the property: no run goes on from here, so no TRUE.
    Undecided,
}

pub fn meaning(p: Property, kind: BugKind) -> Meaning {
    use BugKind as K;
    match (p, kind) {
        (Property::UnreachCall, K::ReachError) => Meaning::Violation(None),
        (Property::ValidMemsafety, K::NullDeref | K::OutOfBounds | K::UseAfterFree) => {
            Meaning::Violation(Some("valid-deref"))
        }
        (Property::ValidMemsafety, K::DoubleFree | K::InvalidFree) => {
            Meaning::Violation(Some("valid-free"))
        }
        (Property::ValidMemsafety, K::MemoryLeak) => Meaning::Violation(Some("valid-memtrack")),
        (Property::ValidMemcleanup, K::NotFreed) => Meaning::Violation(Some("valid-memcleanup")),
        (Property::NoOverflow, K::SignedOverflow) => Meaning::Violation(None),
        (
            Property::DefBehavior,
            K::NullDeref
            | K::OutOfBounds
            | K::UseAfterFree
            | K::DoubleFree
            | K::InvalidFree
            | K::DivByZero
            | K::SignedOverflow
            | K::Unreachable
            // The shift check's report (`Checks::overshift`: an exponent not below the width, signed
            // or not); SV-COMP programs call no `klee_report_error` of their own.
            | K::Reported,
        ) => Meaning::Violation(None),
        (_, K::Abort | K::Assertion) => Meaning::End,
        // Only a bodiless `reach_error` is still the error model here (one with a body runs as an
        // ordinary call): SV-COMP declares it not to return, so the run ends there.
        (
            Property::ValidMemsafety
            | Property::ValidMemcleanup
            | Property::NoOverflow
            | Property::DefBehavior,
            K::ReachError,
        ) => Meaning::End,
        _ => Meaning::Undecided,
    }
}

/// What a bug kind means for `property` (every kind is a violation without one).
pub fn classify(property: Option<Property>, kind: BugKind) -> Class {
    match property {
        None => Class::Violation,
        Some(p) => match meaning(p, kind) {
            Meaning::Violation(_) => Class::Violation,
            Meaning::End => Class::End,
            Meaning::Undecided => Class::Undecided,
        },
    }
}

/// The program as `check` runs it for `p`: a `reach_error` with a body is an ordinary call except under
/// `unreach-call`.
pub fn program(module: Module, p: Property) -> Program {
    let mut prog = Program::new(module);
    if p != Property::UnreachCall {
        prog.run_error_functions_from_bodies();
    }
    prog
}

/// Why `p` is not decided for the program in `file`, when it is not: `no-overflow` with an unsuffixed
/// decimal literal above `INT_MAX`, or on LLVM input, which carries none of clang's overflow checks.
pub fn declined(p: Property, file: &Path) -> Option<String> {
    if !p.checks_overflow() {
        return None;
    }
    wide_unsuffixed_literal(file).or_else(|| llvm_input(file))
}

/// An LLVM input (`.ll`, `.bc`) is not compiled here, so it carries none of clang's overflow checks: an
/// overflow clang folded at compile time left no instruction behind, and a `shl` may be a signed `<<`.
fn llvm_input(file: &Path) -> Option<String> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    matches!(ext, "ll" | "bc").then(|| {
        "LLVM input: overflows clang folded at compile time and signed shifts are not visible in it (no-overflow is decided on C input)".to_string()
    })
}

/// Decimal literals above `INT_MAX` without a suffix (e.g. `-2147483648`): C gives them type `long`, so the
/// arithmetic around them does not overflow `int`, while such programs are usually written to mean `INT_MIN`.
/// Their intended semantics being unclear, `no-overflow` is not decided for them.
fn wide_unsuffixed_literal(file: &Path) -> Option<String> {
    let text = code_only(&std::fs::read_to_string(file).ok()?);
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let starts = bytes[i].is_ascii_digit()
                && (i == 0
                    || !(bytes[i - 1].is_ascii_alphanumeric()
                        || bytes[i - 1] == b'_'
                        || bytes[i - 1] == b'.'));
            if !starts {
                i += 1;
                continue;
            }
            let j = (i..bytes.len())
                .find(|&k| !bytes[k].is_ascii_alphanumeric() && bytes[k] != b'.')
                .unwrap_or(bytes.len());
            let lit = &line[i..j];
            if lit.bytes().all(|b| b.is_ascii_digit()) && !lit.starts_with('0') {
                if let Ok(v) = lit.parse::<u128>() {
                    if v > i32::MAX as u128 && !assigned_int_min(line, i, j, v) {
                        return Some(format!(
                            "the literal {lit} exceeds INT_MAX without a suffix (type long in C): whether the program means INT_MIN arithmetic is unclear"
                        ));
                    }
                }
            }
            i = j;
        }
    }
    None
}

/// `text` with the contents of comments and of string and character literals blanked (line breaks
/// kept, so that lines stay lines): what C's lexer reads as code.
fn code_only(text: &str) -> String {
    #[derive(PartialEq)]
    enum In {
        Code,
        LineComment,
        BlockComment,
        Literal(char),
    }
    let mut out = String::with_capacity(text.len());
    let mut state = In::Code;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match state {
            In::Code => match (c, chars.peek()) {
                ('/', Some('/')) => state = In::LineComment,
                ('/', Some('*')) => {
                    chars.next();
                    state = In::BlockComment;
                }
                ('"' | '\'', _) => state = In::Literal(c),
                _ => {
                    out.push(c);
                    continue;
                }
            },
            In::LineComment if c == '\n' => state = In::Code,
            In::BlockComment if c == '*' && chars.peek() == Some(&'/') => {
                chars.next();
                state = In::Code;
            }
            In::Literal(_) if c == '\\' => {
                chars.next();
            }
            In::Literal(q) if c == q || c == '\n' => state = In::Code,
            _ => {}
        }
        out.push(if c == '\n' { '\n' } else { ' ' });
    }
    out
}

/// Whether the literal `line[i..j]` (value `v`) is the `2147483648` of a whole right-hand side
/// `= -2147483648;`: no arithmetic happens in the literal's type, and the value assigned is exactly
/// `INT_MIN`, whatever the literal's type — the program's meaning is clear (SV-COMP's
/// `PostfixDecrement`: `int x = -2147483648; x--;` overflows as C says).
fn assigned_int_min(line: &str, i: usize, j: usize, v: u128) -> bool {
    let before = line[..i].trim_end();
    let Some(before) = before.strip_suffix('-') else {
        return false;
    };
    let before = before.trim_end();
    let plain_assignment = before
        .strip_suffix('=')
        .is_some_and(|b| !b.ends_with(|c: char| "=<>!+-*/%&|^".contains(c)));
    v == 1 << 31 && plain_assignment && line[j..].trim_start().starts_with(';')
}
