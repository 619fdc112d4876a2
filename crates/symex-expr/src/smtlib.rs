//! SMT-LIB2 printing of terms and of whole queries.

use std::fmt::{self, Write};

use rustc_hash::FxHashMap;

use crate::sort::{Sort, USort};
use crate::term::{Op, Term};
use crate::value::Value;
use crate::vars::{free_vars, funcs_used};
use crate::visit;

/// `name` as an SMT-LIB symbol, quoted with `|...|` when it is not a simple symbol.
pub fn symbol(name: &str) -> String {
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        name.to_owned()
    } else {
        format!("|{}|", name.replace(['|', '\\'], "_"))
    }
}

/// The SMT-LIB name of an operator applied to arguments (leaves print themselves).
fn head(op: &Op) -> String {
    match op {
        Op::Not => "not".into(),
        Op::And => "and".into(),
        Op::Or => "or".into(),
        Op::Xor => "xor".into(),
        Op::Implies => "=>".into(),
        Op::Ite => "ite".into(),
        Op::Eq => "=".into(),
        Op::BvNot => "bvnot".into(),
        Op::BvNeg => "bvneg".into(),
        Op::BvAdd => "bvadd".into(),
        Op::BvSub => "bvsub".into(),
        Op::BvMul => "bvmul".into(),
        Op::BvUdiv => "bvudiv".into(),
        Op::BvSdiv => "bvsdiv".into(),
        Op::BvUrem => "bvurem".into(),
        Op::BvSrem => "bvsrem".into(),
        Op::BvSmod => "bvsmod".into(),
        Op::BvAnd => "bvand".into(),
        Op::BvOr => "bvor".into(),
        Op::BvXor => "bvxor".into(),
        Op::BvShl => "bvshl".into(),
        Op::BvLshr => "bvlshr".into(),
        Op::BvAshr => "bvashr".into(),
        Op::BvUlt => "bvult".into(),
        Op::BvUle => "bvule".into(),
        Op::BvSlt => "bvslt".into(),
        Op::BvSle => "bvsle".into(),
        Op::Concat => "concat".into(),
        Op::Extract { hi, lo } => format!("(_ extract {hi} {lo})"),
        Op::ZeroExt(n) => format!("(_ zero_extend {n})"),
        Op::SignExt(n) => format!("(_ sign_extend {n})"),
        Op::IntAdd => "+".into(),
        Op::IntSub | Op::IntNeg => "-".into(),
        Op::IntMul => "*".into(),
        Op::IntDiv => "div".into(),
        Op::IntMod => "mod".into(),
        Op::IntLe => "<=".into(),
        Op::IntLt => "<".into(),
        Op::Select => "select".into(),
        Op::Store => "store".into(),
        Op::Apply(f) => symbol(f.name()),
        Op::BoolConst(_) | Op::BvConst { .. } | Op::IntConst(_) | Op::Var(_) | Op::ConstArray => {
            unreachable!("leaves print themselves")
        }
    }
}

/// Writes the node `t` whose arguments print as `arg(i)`.
fn write_node(
    out: &mut dyn Write,
    t: &Term,
    mut arg: impl FnMut(&mut dyn Write, &Term) -> fmt::Result,
) -> fmt::Result {
    match t.op() {
        Op::BoolConst(b) => write!(out, "{b}"),
        Op::BvConst { value, width } => write!(
            out,
            "{}",
            Value::Bv {
                value: *value,
                width: *width
            }
        ),
        Op::IntConst(i) => write!(out, "{}", Value::Int(*i)),
        Op::Var(name) => write!(out, "{}", symbol(name)),
        Op::ConstArray => {
            write!(out, "((as const {}) ", t.sort())?;
            arg(out, t.arg(0))?;
            write!(out, ")")
        }
        op => {
            write!(out, "({}", head(op))?;
            for a in t.args() {
                write!(out, " ")?;
                arg(out, a)?;
            }
            write!(out, ")")
        }
    }
}

impl fmt::Display for Term {
    /// The term as one SMT-LIB expression; subterms used more than once (and the roots of
    /// deep chains) are bound by `let`, so the text stays linear in the size of the DAG.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with_lets(f, self)
    }
}

/// A complete SMT-LIB2 script asserting `constraints` and asking `(check-sat)`.
///
/// Sorts, functions and variables are declared; subterms used more than once are named by
/// `define-fun` so that the script stays linear in the size of the DAG.
pub fn to_smtlib2(constraints: &[Term]) -> String {
    let mut out = String::new();
    write_declarations(&mut out, constraints);
    let names = write_shared_definitions(&mut out, constraints);
    for c in constraints {
        out.push_str("(assert ");
        write_named(&mut out as &mut dyn Write, c, &names).expect("writing to a String");
        out.push_str(")\n");
    }
    out.push_str("(check-sat)\n");
    out
}

fn write_declarations(out: &mut String, terms: &[Term]) {
    let vars = free_vars(terms);
    let funcs = funcs_used(terms);
    let mut usorts: Vec<USort> = Vec::new();
    let mut note = |s: Sort| note_usorts(s, &mut usorts);
    vars.iter().for_each(|v| note(v.sort()));
    for f in &funcs {
        f.domain().iter().for_each(|s| note(*s));
        note(f.range());
    }
    for u in usorts {
        let _ = writeln!(out, "(declare-sort {} 0)", symbol(u.name()));
    }
    for f in &funcs {
        let domain: Vec<String> = f.domain().iter().map(|s| s.to_string()).collect();
        let _ = writeln!(
            out,
            "(declare-fun {} ({}) {})",
            symbol(f.name()),
            domain.join(" "),
            f.range()
        );
    }
    for v in &vars {
        let name = v.as_var().expect("free_vars gives variables");
        let _ = writeln!(out, "(declare-fun {} () {})", symbol(name), v.sort());
    }
}

/// The uninterpreted sorts `s` mentions (one may appear only inside an array sort).
fn note_usorts(s: Sort, usorts: &mut Vec<USort>) {
    match s {
        Sort::Uninterpreted(u) if !usorts.contains(&u) => usorts.push(u),
        Sort::Map(m) => {
            note_usorts(m.index(), usorts);
            note_usorts(m.element(), usorts);
        }
        _ => {}
    }
}

/// The nodes to print by name, arguments before users: every non-leaf node used more than
/// once, and every node whose unnamed subtree is deep (so that printing never recurses
/// deeply and never repeats a shared subterm).
fn nodes_to_name(terms: &[Term]) -> Vec<Term> {
    const MAX_INLINE_DEPTH: u32 = 64;
    let mut uses: FxHashMap<u64, u32> = FxHashMap::default();
    visit::postorder(terms, |t| {
        for a in t.args() {
            *uses.entry(a.id()).or_default() += 1;
        }
    });
    let mut named = Vec::new();
    let mut depth: FxHashMap<u64, u32> = FxHashMap::default();
    visit::postorder(terms, |t| {
        if t.args().is_empty() {
            return;
        }
        let d = 1 + t
            .args()
            .iter()
            .map(|a| depth.get(&a.id()).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        let shared = uses.get(&t.id()).copied().unwrap_or(0) > 1;
        if shared || d >= MAX_INLINE_DEPTH {
            named.push(t.clone());
        } else {
            depth.insert(t.id(), d);
        }
    });
    named
}

/// Names (by `define-fun`) the nodes of [`nodes_to_name`].
fn write_shared_definitions(out: &mut String, terms: &[Term]) -> FxHashMap<u64, String> {
    let mut names = FxHashMap::default();
    for t in nodes_to_name(terms) {
        let name = format!("?t{}", t.id());
        let _ = write!(out, "(define-fun {name} () {} ", t.sort());
        let _ = write_named(out as &mut dyn Write, &t, &names);
        out.push_str(")\n");
        names.insert(t.id(), name);
    }
    names
}

/// One expression, with the nodes of [`nodes_to_name`] bound by nested `let`s.
fn write_with_lets(out: &mut dyn Write, t: &Term) -> fmt::Result {
    let named = nodes_to_name(std::slice::from_ref(t));
    let mut names = FxHashMap::default();
    for n in &named {
        let name = format!("?t{}", n.id());
        write!(out, "(let (({name} ")?;
        write_named(out, n, &names)?;
        write!(out, ")) ")?;
        names.insert(n.id(), name);
    }
    match names.get(&t.id()) {
        Some(name) => out.write_str(name)?,
        None => write_named(out, t, &names)?,
    }
    for _ in &named {
        out.write_str(")")?;
    }
    Ok(())
}

/// Writes `t`'s node, printing named arguments by name.
fn write_named(out: &mut dyn Write, t: &Term, names: &FxHashMap<u64, String>) -> fmt::Result {
    write_node(out, t, |o, a| match names.get(&a.id()) {
        Some(n) => o.write_str(n),
        None => write_named(o, a, names),
    })
}
