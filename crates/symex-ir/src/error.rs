//! Front-end errors: each carries the message a user should see (the CLI exits with status 2).

use std::fmt;

/// Why a program could not be turned into symex IR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontendError {
    /// The input file could not be read or has an unknown extension.
    Input { path: String, message: String },
    /// An external tool (`clang-14`, `opt-14`) is missing or failed to run.
    Tool { tool: String, message: String },
    /// clang rejected the program; `diagnostics` is clang's stderr, verbatim.
    Compile { path: String, diagnostics: String },
    /// LLVM could not parse the `.ll`/`.bc` input.
    Parse { path: String, message: String },
    /// The deadline of [`crate::FrontendOptions`] passed before the program was lowered; `stage`
    /// names the step that was cut (compiling, parsing, lowering).
    Timeout { path: String, stage: String },
    /// The program uses something symex does not model (floating point, inline assembly, ...).
    Unsupported {
        /// The construct, e.g. "floating-point instruction `fadd`".
        construct: String,
        /// `file:line:col` when known.
        location: Option<String>,
        /// The enclosing function when known.
        function: Option<String>,
    },
}

impl FrontendError {
    pub(crate) fn unsupported(construct: impl Into<String>) -> Self {
        FrontendError::Unsupported {
            construct: construct.into(),
            location: None,
            function: None,
        }
    }

    /// Attaches a source position and function to an `Unsupported` error that lacks them.
    pub(crate) fn at(mut self, loc: Option<String>, func: Option<&str>) -> Self {
        if let FrontendError::Unsupported {
            location, function, ..
        } = &mut self
        {
            if location.is_none() {
                *location = loc;
            }
            if function.is_none() {
                *function = func.map(str::to_owned);
            }
        }
        self
    }

    /// The source position, if the error has one.
    pub fn location(&self) -> Option<&str> {
        match self {
            FrontendError::Unsupported { location, .. } => location.as_deref(),
            _ => None,
        }
    }
}

impl fmt::Display for FrontendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrontendError::Input { path, message } => write!(f, "{path}: {message}"),
            FrontendError::Tool { tool, message } => write!(f, "{tool}: {message}"),
            FrontendError::Timeout { path, stage } => {
                write!(
                    f,
                    "{path}: the time limit (--max-time) ran out while {stage}"
                )
            }
            FrontendError::Compile { path, diagnostics } => {
                write!(f, "{path}: compilation failed\n{}", diagnostics.trim_end())
            }
            FrontendError::Parse { path, message } => {
                write!(f, "{path}: cannot load LLVM IR: {message}")
            }
            FrontendError::Unsupported {
                construct,
                location,
                function,
            } => {
                if let Some(loc) = location {
                    write!(f, "{loc}: ")?;
                }
                write!(f, "unsupported: {construct}")?;
                if let Some(func) = function {
                    write!(f, " (in function `{func}`)")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for FrontendError {}

pub type Result<T, E = FrontendError> = std::result::Result<T, E>;
