//! Errors with source positions, rendered with `codespan-reporting`.
use crate::syntax::ast::Span;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::Buffer};

/// A parse, type or verification error anchored at a source span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    pub span: Span,
    /// What the primary span is (e.g. "this conjunct of the precondition").
    pub label: String,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span,
            label: String::new(),
            notes: Vec::new(),
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..floor_char_boundary(src, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

fn floor_char_boundary(src: &str, mut i: usize) -> usize {
    while i > 0 && !src.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Renders a diagnostic the way compilers do: message, `file:line:col`, the source line, a caret.
pub fn render(file_name: &str, src: &str, d: &Diagnostic) -> String {
    render_as(CsDiagnostic::error(), "error", file_name, src, d)
}

/// The same for a warning (the program is checked, but likely not what was meant).
pub fn render_warning(file_name: &str, src: &str, d: &Diagnostic) -> String {
    render_as(CsDiagnostic::warning(), "warning", file_name, src, d)
}

fn render_as(
    cs: CsDiagnostic<()>,
    severity: &str,
    file_name: &str,
    src: &str,
    d: &Diagnostic,
) -> String {
    let file = SimpleFile::new(file_name, src);
    let start = floor_char_boundary(src, d.span.start.min(src.len()));
    let end = floor_char_boundary(src, d.span.end.min(src.len())).max(start);
    let cs = cs
        .with_message(&d.message)
        .with_labels(vec![Label::primary((), start..end).with_message(&d.label)])
        .with_notes(d.notes.clone());
    let mut buf = Buffer::no_color();
    let config = term::Config::default();
    match term::emit(&mut buf, &config, &file, &cs) {
        Ok(()) => String::from_utf8_lossy(buf.as_slice()).into_owned(),
        Err(_) => {
            let (l, c) = line_col(src, d.span.start);
            format!("{severity}: {}\n --> {file_name}:{l}:{c}\n", d.message)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one_and_in_characters() {
        let src = "ab\n≠x";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 3), (2, 1));
        assert_eq!(line_col(src, 3 + '≠'.len_utf8()), (2, 2));
    }

    #[test]
    fn render_names_the_file_and_position() {
        let src = "class A {\n  int x\n}";
        let d = Diagnostic::error("expected `;`", Span::new(18, 19));
        let out = render("a.idf", src, &d);
        assert!(out.contains("expected `;`"), "{out}");
        assert!(out.contains("a.idf:3:1"), "{out}");
    }
}
