//! Tokens of the IDF language (`spec/idf-language.md`, "Lexical").
use super::ast::Span;
use crate::diagnostics::Diagnostic;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Int(String),
    Kw(&'static str),
    /// Punctuation and operators, normalised: `∧` arrives as `&&`, `≠` as `!=`, `≤` as `<=`, `≥` as `>=`.
    Sym(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// The reserved words (a word in this list never lexes as an identifier).
pub const KEYWORDS: &[&str] = &[
    "class",
    "main",
    "void",
    "int",
    "bool",
    "pure",
    "predicate",
    "requires",
    "ensures",
    "invariant",
    "return",
    "if",
    "else",
    "while",
    "new",
    "null",
    "true",
    "false",
    "this",
    "result",
    "acc",
    "old",
    "untouched",
    "open",
    "close",
    "use",
    "opening",
    "using",
    "in",
    "join",
    "assert",
    "assume",
];

/// Longest symbols first so that `:=` wins over `:` and `<=` over `<`.
pub const SYMBOLS: &[&str] = &[
    ":=", "<=", ">=", "==", "!=", "&&", "||", "++", "(", ")", "{", "}", "[", "]", ";", ",", ".",
    "?", ":", "*", "/", "%", "+", "-", "<", ">", "=", "!",
];

/// The mathematical symbols the language also accepts, with the symbol each stands for.
pub const UNICODE_SYNONYMS: &[(char, &str)] = &[('∧', "&&"), ('≠', "!="), ('≤', "<="), ('≥', ">=")];

pub fn lex(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut out = Vec::new();
    let bytes = src.as_bytes();
    let mut i = 0;
    while i < src.len() {
        let c = src[i..].chars().next().unwrap_or(' ');
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(src.len(), |n| i + n);
            continue;
        }
        if src[i..].starts_with("/*") {
            match src[i + 2..].find("*/") {
                Some(n) => i = i + 2 + n + 2,
                None => {
                    return Err(Diagnostic::error(
                        "unterminated comment",
                        Span::new(i, i + 2),
                    ))
                }
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == '_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &src[start..i];
            let tok = match KEYWORDS.iter().find(|k| **k == word) {
                Some(k) => Tok::Kw(k),
                None => Tok::Ident(word.to_string()),
            };
            out.push(Token {
                tok,
                span: Span::new(start, i),
            });
            continue;
        }
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Int(src[start..i].to_string()),
                span: Span::new(start, i),
            });
            continue;
        }
        if let Some((_, sym)) = UNICODE_SYNONYMS.iter().find(|(u, _)| *u == c) {
            i += c.len_utf8();
            out.push(Token {
                tok: Tok::Sym(sym),
                span: Span::new(start, i),
            });
            continue;
        }
        match SYMBOLS.iter().find(|s| src[i..].starts_with(**s)) {
            Some(sym) => {
                i += sym.len();
                out.push(Token {
                    tok: Tok::Sym(sym),
                    span: Span::new(start, i),
                });
            }
            None => {
                let end = i + c.len_utf8();
                return Err(Diagnostic::error(
                    format!("unexpected character `{c}`"),
                    Span::new(start, end),
                ));
            }
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        span: Span::new(src.len(), src.len()),
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        lex(src).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn unicode_synonyms_become_ascii_operators() {
        assert_eq!(
            toks("a ∧ b ≠ c ≤ d ≥ e"),
            vec![
                Tok::Ident("a".into()),
                Tok::Sym("&&"),
                Tok::Ident("b".into()),
                Tok::Sym("!="),
                Tok::Ident("c".into()),
                Tok::Sym("<="),
                Tok::Ident("d".into()),
                Tok::Sym(">="),
                Tok::Ident("e".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn comments_are_skipped_and_assignment_is_one_token() {
        assert_eq!(
            toks("x /* c */ := 1; // rest"),
            vec![
                Tok::Ident("x".into()),
                Tok::Sym(":="),
                Tok::Int("1".into()),
                Tok::Sym(";"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn unterminated_comment_is_an_error_with_position() {
        let e = lex("x /* never closed").unwrap_err();
        assert_eq!(e.span.start, 2);
    }
}
