//! The KoAT format of the Termination and Complexity Competition's ITS categories:
//!
//! ```text
//! (GOAL COMPLEXITY)
//! (STARTTERM (FUNCTIONSYMBOLS l0))
//! (VAR A B U)
//! (RULES
//!   l0(A,B) -> Com_1(l1(A,B)) :|: A >= 0 && B = U
//!   l1(A,B) -{2}> l1(A - 1,B^2) :|: A > 0 /\ TRUE
//! )
//! ```
//!
//! Names on the left-hand side are the program variables; any other name in a rule is a
//! temporary. A syntax error names its line and column.

use crate::its::{Atom, Goal, Its, Rel, Transition};
use crate::poly::Poly;
use std::collections::HashMap;
use std::fmt;

/// A syntax error at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Line (1-based).
    pub line: usize,
    /// Column (1-based, in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(i128),
    Sym(&'static str),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Num(n) => write!(f, "`{n}`"),
            Tok::Sym(s) => write!(f, "`{s}`"),
            Tok::Eof => write!(f, "end of file"),
        }
    }
}

/// Longest symbols first, so that `->` is not read as `-` `>`.
const SYMBOLS: &[&str] = &[
    ":|:", "->", "-{", "}>", "&&", "/\\", "<=", ">=", "!=", "==", "(", ")", ",", "+", "-", "*",
    "^", "<", ">", "=", "}",
];

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '\'' | '#' | '$' | '@')
}

fn tokenize(src: &str) -> Result<Vec<(Tok, usize, usize)>, ParseError> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::new();
    let (mut i, mut line, mut col) = (0, 1, 1);
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        let start = (line, col);
        if c.is_ascii_digit() {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let text: String = chars[i..j].iter().collect();
            let n = text.parse::<i128>().map_err(|_| ParseError {
                line,
                column: col,
                message: format!("number `{text}` is too large"),
            })?;
            toks.push((Tok::Num(n), start.0, start.1));
            col += j - i;
            i = j;
            continue;
        }
        if is_ident_char(c) {
            let mut j = i;
            while j < chars.len() && is_ident_char(chars[j]) {
                j += 1;
            }
            toks.push((Tok::Ident(chars[i..j].iter().collect()), start.0, start.1));
            col += j - i;
            i = j;
            continue;
        }
        let rest: String = chars[i..chars.len().min(i + 3)].iter().collect();
        match SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            Some(s) => {
                toks.push((Tok::Sym(s), line, col));
                i += s.chars().count();
                col += s.chars().count();
            }
            None => {
                return Err(ParseError {
                    line,
                    column: col,
                    message: format!("unexpected character `{c}`"),
                })
            }
        }
    }
    toks.push((Tok::Eof, line, col));
    Ok(toks)
}

/// How deep parentheses and unary minus signs may nest in one expression: the parser descends
/// once per level, and input nested deeper is refused with its position rather than exhausting the
/// stack.
pub const MAX_NESTING: usize = 1000;

struct Parser {
    toks: Vec<(Tok, usize, usize)>,
    pos: usize,
    /// Open parentheses and unary minus signs around the current token.
    depth: usize,
}

/// The variables of one rule: left-hand-side names first, then temporaries.
struct Scope {
    index: HashMap<String, usize>,
    temps: Vec<String>,
    arity: usize,
}

impl Scope {
    fn var(&mut self, name: &str) -> usize {
        if let Some(i) = self.index.get(name) {
            return *i;
        }
        let i = self.arity + self.temps.len();
        self.temps.push(name.to_string());
        self.index.insert(name.to_string(), i);
        i
    }
}

type PResult<T> = Result<T, ParseError>;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }

    fn error<T>(&self, message: String) -> PResult<T> {
        let (_, line, column) = self.toks[self.pos];
        Err(ParseError {
            line,
            column,
            message,
        })
    }

    /// One more level of nesting, refused past [`MAX_NESTING`].
    fn descend(&mut self) -> PResult<()> {
        if self.depth >= MAX_NESTING {
            return self.error(format!(
                "expression nested deeper than {MAX_NESTING} levels"
            ));
        }
        self.depth += 1;
        Ok(())
    }

    fn next(&mut self) -> Tok {
        let t = self.toks[self.pos].0.clone();
        if t != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, sym: &str) -> bool {
        if matches!(self.peek(), Tok::Sym(s) if *s == sym) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, sym: &str) -> PResult<()> {
        if self.eat(sym) {
            Ok(())
        } else {
            self.error(format!("expected `{sym}`, found {}", self.peek()))
        }
    }

    fn ident(&mut self, what: &str) -> PResult<String> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.pos += 1;
                Ok(s)
            }
            t => self.error(format!("expected {what}, found {t}")),
        }
    }

    fn keyword(&mut self, kw: &str) -> PResult<()> {
        match self.peek() {
            Tok::Ident(s) if s == kw => {
                self.pos += 1;
                Ok(())
            }
            t => self.error(format!("expected `{kw}`, found {t}")),
        }
    }

    /// `expr := term (('+'|'-') term)*`
    fn expr(&mut self, scope: &mut Scope) -> PResult<Poly> {
        let mut p = self.term(scope)?;
        loop {
            if self.eat("+") {
                p = p.add(&self.term(scope)?);
            } else if self.eat("-") {
                p = p.sub(&self.term(scope)?);
            } else {
                return Ok(p);
            }
        }
    }

    /// `term := unary ('*' unary)*`
    fn term(&mut self, scope: &mut Scope) -> PResult<Poly> {
        let mut p = self.unary(scope)?;
        while self.eat("*") {
            p = p.mul(&self.unary(scope)?);
        }
        Ok(p)
    }

    /// `unary := '-' unary | power`
    fn unary(&mut self, scope: &mut Scope) -> PResult<Poly> {
        if self.eat("-") {
            self.descend()?;
            let p = self.unary(scope)?.scale(-1);
            self.depth -= 1;
            return Ok(p);
        }
        self.power(scope)
    }

    /// `power := atom ('^' number)?`
    fn power(&mut self, scope: &mut Scope) -> PResult<Poly> {
        let base = self.primary(scope)?;
        if self.eat("^") {
            match self.next() {
                Tok::Num(n) if n <= 64 => return Ok(base.pow(n as u32)),
                t => {
                    self.pos -= 1;
                    return self.error(format!("expected an exponent up to 64, found {t}"));
                }
            }
        }
        Ok(base)
    }

    fn primary(&mut self, scope: &mut Scope) -> PResult<Poly> {
        match self.peek().clone() {
            Tok::Num(n) => {
                self.pos += 1;
                Ok(Poly::constant(n))
            }
            Tok::Ident(name) => {
                self.pos += 1;
                Ok(Poly::var(scope.var(&name)))
            }
            Tok::Sym("(") => {
                self.descend()?;
                self.pos += 1;
                let p = self.expr(scope)?;
                self.expect(")")?;
                self.depth -= 1;
                Ok(p)
            }
            t => self.error(format!("expected an expression, found {t}")),
        }
    }

    fn atom(&mut self, scope: &mut Scope) -> PResult<Option<Atom>> {
        if matches!(self.peek(), Tok::Ident(s) if s == "TRUE") {
            self.pos += 1;
            return Ok(None);
        }
        let lhs = self.expr(scope)?;
        let op = match self.next() {
            Tok::Sym(s @ ("<=" | ">=" | "<" | ">" | "=" | "==" | "!=")) => s,
            t => {
                self.pos -= 1;
                return self.error(format!("expected a comparison, found {t}"));
            }
        };
        let rhs = self.expr(scope)?;
        let one = Poly::constant(1);
        // Over ℤ, strict comparisons become non-strict ones.
        let atom = match op {
            ">=" => Atom::ge0(lhs.sub(&rhs)),
            "<=" => Atom::ge0(rhs.sub(&lhs)),
            ">" => Atom::ge0(lhs.sub(&rhs).sub(&one)),
            "<" => Atom::ge0(rhs.sub(&lhs).sub(&one)),
            "!=" => Atom {
                poly: lhs.sub(&rhs),
                rel: Rel::Ne,
            },
            _ => Atom {
                poly: lhs.sub(&rhs),
                rel: Rel::Eq,
            },
        };
        Ok(Some(atom))
    }

    fn guard(&mut self, scope: &mut Scope) -> PResult<Vec<Atom>> {
        let mut atoms = Vec::new();
        loop {
            atoms.extend(self.atom(scope)?);
            if !(self.eat("&&") || self.eat("/\\")) {
                return Ok(atoms);
            }
        }
    }

    /// `l(e1,…,en)`; returns the location name and its arguments.
    fn application(&mut self, scope: &mut Scope) -> PResult<(String, Vec<Poly>)> {
        let name = self.ident("a location")?;
        self.expect("(")?;
        let mut args = Vec::new();
        if !self.eat(")") {
            loop {
                args.push(self.expr(scope)?);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        Ok((name, args))
    }

    fn rule(&mut self, its: &mut Its, first: &mut bool) -> PResult<Transition> {
        let (line, column) = (self.toks[self.pos].1, self.toks[self.pos].2);
        let source_name = self.ident("a location")?;
        self.expect("(")?;
        let mut params = Vec::new();
        if !self.eat(")") {
            loop {
                let p = self.ident("a variable")?;
                if params.contains(&p) {
                    self.pos -= 1;
                    return self.error(format!("variable `{p}` appears twice on the left"));
                }
                params.push(p);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        if *first {
            its.vars = params.clone();
            *first = false;
        }
        let arity_error = |n: usize| ParseError {
            line,
            column,
            message: format!(
                "location `{source_name}` has {n} arguments, the first rule {}",
                its.vars.len()
            ),
        };
        if params.len() != its.vars.len() {
            return Err(arity_error(params.len()));
        }
        let mut scope = Scope {
            index: params
                .iter()
                .enumerate()
                .map(|(i, p)| (p.clone(), i))
                .collect(),
            temps: Vec::new(),
            arity: params.len(),
        };
        let cost = if self.eat("->") {
            Poly::constant(1)
        } else if self.eat("-{") {
            let c = self.expr(&mut scope)?;
            // KoAT also allows `-{cost, size}>`; the second component is not used.
            if self.eat(",") {
                self.expr(&mut scope)?;
            }
            self.expect("}>")?;
            c
        } else {
            return self.error(format!("expected `->`, found {}", self.peek()));
        };
        let mut com = false;
        let mut rhs = Vec::new();
        if matches!(self.peek(), Tok::Ident(s) if s.starts_with("Com_")) {
            let Tok::Ident(name) = self.next() else {
                unreachable!()
            };
            let k: usize = match name[4..].parse() {
                Ok(k) if k >= 1 => k,
                _ => {
                    self.pos -= 1;
                    return self.error(format!("malformed `{name}`"));
                }
            };
            com = true;
            self.expect("(")?;
            loop {
                rhs.push(self.application(&mut scope)?);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
            if rhs.len() != k {
                self.pos -= 1;
                return self.error(format!("`{name}` with {} targets", rhs.len()));
            }
        } else {
            rhs.push(self.application(&mut scope)?);
        }
        let guard = if self.eat(":|:") {
            self.guard(&mut scope)?
        } else {
            Vec::new()
        };
        // A temporary must not print as a program variable: rules may name the arguments
        // differently from the first rule, whose names the printer uses.
        let mut temps = scope.temps;
        for i in 0..temps.len() {
            let base = temps[i].clone();
            let mut k = 0;
            while its.vars.contains(&temps[i]) || temps[..i].contains(&temps[i]) {
                k += 1;
                temps[i] = format!("{base}_{k}");
            }
        }
        // Temporaries are numbered in name order, so that the order in which a printer
        // writes them does not change the ITS.
        let n = its.vars.len();
        let mut order: Vec<usize> = (0..temps.len()).collect();
        order.sort_by(|a, b| temps[*a].cmp(&temps[*b]));
        let mut new_index = vec![0; temps.len()];
        for (new, old) in order.iter().enumerate() {
            new_index[*old] = new;
        }
        let renumber = |p: &Poly| {
            p.substitute(&|v| {
                if v < n {
                    Poly::var(v)
                } else {
                    Poly::var(n + new_index[v - n])
                }
            })
        };
        let temps: Vec<String> = order.iter().map(|i| temps[*i].clone()).collect();
        let rhs: Vec<(String, Vec<Poly>)> = rhs
            .into_iter()
            .map(|(l, args)| (l, args.iter().map(renumber).collect()))
            .collect();
        let guard: Vec<Atom> = guard
            .into_iter()
            .map(|a| Atom {
                poly: renumber(&a.poly),
                rel: a.rel,
            })
            .collect();
        let cost = renumber(&cost);
        let mut targets = Vec::new();
        for (name, args) in rhs {
            if args.len() != its.vars.len() {
                return Err(ParseError {
                    line,
                    column,
                    message: format!(
                        "location `{name}` has {} arguments, the first rule {}",
                        args.len(),
                        its.vars.len()
                    ),
                });
            }
            targets.push((its.location(&name), args));
        }
        Ok(Transition {
            source: its.location(&source_name),
            targets,
            guard,
            cost,
            temps,
            com,
        })
    }

    fn file(&mut self) -> PResult<Its> {
        let mut its = Its {
            goal: Goal::Complexity,
            locations: Vec::new(),
            start: 0,
            vars: Vec::new(),
            transitions: Vec::new(),
        };
        let mut start = None;
        let mut seen_rules = false;
        while *self.peek() != Tok::Eof {
            self.expect("(")?;
            let section = self.ident("a section name")?;
            match section.as_str() {
                "GOAL" => {
                    let g = self.ident("COMPLEXITY or TERMINATION")?;
                    its.goal = match g.as_str() {
                        "COMPLEXITY" => Goal::Complexity,
                        "TERMINATION" => Goal::Termination,
                        _ => {
                            self.pos -= 1;
                            return self.error(format!("unknown goal `{g}`"));
                        }
                    };
                    self.expect(")")?;
                }
                "STARTTERM" => {
                    self.expect("(")?;
                    self.keyword("FUNCTIONSYMBOLS")?;
                    let l = self.ident("the start location")?;
                    start = Some(its.location(&l));
                    self.expect(")")?;
                    self.expect(")")?;
                }
                "VAR" => {
                    // Declarations are informative: the rules say which names are
                    // program variables (left-hand sides) and which temporaries.
                    while !self.eat(")") {
                        self.ident("a variable or `)`")?;
                    }
                }
                "RULES" => {
                    let mut first = true;
                    while !self.eat(")") {
                        let t = self.rule(&mut its, &mut first)?;
                        its.transitions.push(t);
                    }
                    seen_rules = true;
                }
                _ => {
                    self.pos -= 1;
                    return self.error(format!("unknown section `{section}`"));
                }
            }
        }
        match start {
            Some(s) if seen_rules => {
                its.start = s;
                Ok(its)
            }
            Some(_) => self.error("no (RULES …) section".into()),
            None => self.error("no (STARTTERM (FUNCTIONSYMBOLS …)) section".into()),
        }
    }
}

/// Parses a `.koat` file.
pub fn parse_koat(src: &str) -> Result<Its, ParseError> {
    let toks = tokenize(src)?;
    Parser {
        toks,
        pos: 0,
        depth: 0,
    }
    .file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_past_the_limit_is_a_positioned_error() {
        let rule = |open: usize| {
            format!(
                "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f))\n(VAR X)\n(RULES\n  f(X) -> f({}X - 1{}) :|: X > 0\n)",
                "(".repeat(open),
                ")".repeat(open)
            )
        };
        assert!(parse_koat(&rule(MAX_NESTING)).is_ok());
        let e = parse_koat(&rule(7000)).unwrap_err();
        assert_eq!((e.line, e.column), (5, 13 + MAX_NESTING), "{e}");
        assert!(e.message.contains("nested deeper"), "{e}");
        let minus =
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f))\n(VAR X)\n(RULES\n  f(X) -> f("
                .to_string()
                + &"- ".repeat(5000)
                + "X)\n)";
        assert!(parse_koat(&minus).is_err());
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse_koat("(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR A)\n(RULES\n  l0(A) -> l1(A +) \n)").unwrap_err();
        assert_eq!((e.line, e.column), (5, 18), "{e}");
        let e = parse_koat("(GOAL COMPLEXITY)\n(RULES\n  l0(A) => l1(A)\n)").unwrap_err();
        assert_eq!((e.line, e.column), (3, 9), "{e}");
    }

    #[test]
    fn temporaries_and_guards() {
        let its = parse_koat(
            "(GOAL TERMINATION)\n(STARTTERM (FUNCTIONSYMBOLS a))\n(VAR X U)\n(RULES\n a(X) -{2}> Com_1(b(U)) :|: X < U /\\ TRUE && X != 3\n)",
        )
        .unwrap();
        assert_eq!(its.goal, Goal::Termination);
        let t = &its.transitions[0];
        assert_eq!(t.temps, vec!["U".to_string()]);
        assert_eq!(t.cost, Poly::constant(2));
        assert_eq!(t.guard.len(), 2);
        assert_eq!(t.guard[0].holds(&[1, 2]), Some(true));
        assert_eq!(t.guard[0].holds(&[2, 2]), Some(false));
    }
}
