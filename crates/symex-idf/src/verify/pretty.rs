//! Terms in the paper's notation (`t.x`, `Cell.getX(fromInt(v), t)`, `a ≠ null`) for traces
//! and messages, rather than SMT-LIB.
use super::state::{Chunk, Heap};
use super::{State, TraceStep};
use std::collections::HashMap;
use symex_expr::{Op, Term};

/// Source names for the symbolic values of a state: a fresh variable held by a program
/// variable is shown as that variable (`this.x ↦ v` rather than `this#0.x ↦ v#5`).
pub type Names = HashMap<Term, String>;

pub fn term(t: &Term) -> String {
    named(t, &Names::new())
}

/// The names of a state's store: each program variable whose value is a symbolic variable
/// names it (`this` first, then in alphabetical order).
pub fn names_of(state: &State) -> Names {
    let mut vars: Vec<(&str, &Term)> = state.store.iter().map(|(k, t)| (&**k, t)).collect();
    vars.sort_by_key(|(k, _)| (*k != "this", *k));
    let mut names = Names::new();
    for (k, t) in vars {
        if matches!(t.op(), Op::Var(_)) && *t != super::terms::null() && !k.starts_with('#') {
            names.entry(t.clone()).or_insert_with(|| k.to_string());
        }
    }
    names
}

/// A term with the source names of `names`.
pub fn named(t: &Term, names: &Names) -> String {
    if let Some(n) = names.get(t) {
        return n.clone();
    }
    let term = |x: &Term| named(x, names);
    let a = |i: usize| term(t.arg(i));
    let bin = |sym: &str| format!("({} {sym} {})", a(0), a(1));
    match t.op() {
        Op::BoolConst(b) => b.to_string(),
        Op::IntConst(n) => n.to_string(),
        Op::Var(name) => name.replace('!', "#"),
        Op::Not => match t.arg(0).op() {
            Op::Eq => format!("{} ≠ {}", term(t.arg(0).arg(0)), term(t.arg(0).arg(1))),
            _ => format!("¬{}", a(0)),
        },
        Op::Eq => format!("{} = {}", a(0), a(1)),
        Op::And => t.args().iter().map(term).collect::<Vec<_>>().join(" ∧ "),
        Op::Or => format!(
            "({})",
            t.args().iter().map(term).collect::<Vec<_>>().join(" ∨ ")
        ),
        Op::Implies => bin("⇒"),
        Op::Ite => format!("ite({}, {}, {})", a(0), a(1), a(2)),
        Op::IntAdd => bin("+"),
        Op::IntSub => bin("-"),
        Op::IntMul => bin("*"),
        Op::IntDiv => bin("/"),
        Op::IntMod => bin("%"),
        Op::IntLe => bin("≤"),
        Op::IntLt => bin("<"),
        Op::IntNeg => format!("-{}", a(0)),
        Op::Apply(f) => {
            let args: Vec<String> = t.args().iter().map(term).collect();
            format!("{}({})", f.name(), args.join(", "))
        }
        // Array contents: `e[i]`, `e[i := v]`, `[v, v, …]` for a fresh array.
        Op::Select => format!("{}[{}]", a(0), a(1)),
        Op::Store => format!("{}[{} := {}]", a(0), a(1), a(2)),
        Op::ConstArray => format!("[{}, {}, …]", a(0), a(0)),
        _ => t.to_string(),
    }
}

fn chunk(c: &Chunk, names: &Names) -> String {
    chunk_with(c, &|t: &Term| named(t, names))
}

/// A heap chunk in Figure 9's notation, its terms printed by `p` (field and predicate names short).
pub(super) fn chunk_with(c: &Chunk, p: &dyn Fn(&Term) -> String) -> String {
    let short = |n: &str| n.rsplit('.').next().unwrap_or(n).to_string();
    match c {
        Chunk::Field { recv, field, value } => {
            format!("{}.{} ↦ {}", p(recv), short(field), p(value))
        }
        Chunk::Pred {
            recv,
            pred,
            args,
            snap,
        } => {
            let args: Vec<String> = args.iter().map(p).collect();
            format!(
                "{}.{}[{}]({})",
                p(recv),
                short(pred),
                p(snap),
                args.join(", ")
            )
        }
        Chunk::Elems { recv, value } => format!("{}.elems ↦ {}", p(recv), p(value)),
    }
}

fn heap(h: &Heap, names: &Names) -> String {
    h.iter()
        .map(|c| chunk(c, names))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The states on a failing path for `--trace`, in the paper's Figure 9 notation: each step's
/// statement (with what it is when it is not a plain statement: an inferred ghost operation,
/// a callee's or the old state), then H, G, Γ and Σ before it. Symbolic values held by program
/// variables are shown by their names; Σ is shown whole once and then as what each step adds
/// (`Σ += {…}`); the statements one source statement was lowered to (`C x := new C(a)`: a
/// declaration, `new`, the constructor call) are shown once. The goal that failed comes last.
pub fn render_trace(src: &str, trace: &[TraceStep], goal: Option<&Term>) -> String {
    let mut out = String::new();
    let mut shown_pc: Option<Vec<Term>> = None;
    let mut known = Names::new();
    let mut previous: Option<&TraceStep> = None;
    for step in trace {
        if let Some(p) = previous {
            if p.span == step.span && p.label.is_none() && step.label.is_none() {
                continue;
            }
        }
        previous = Some(step);
        let (line, col) = crate::diagnostics::line_col(src, step.span.start);
        let text = src
            .get(step.span.start..step.span.end)
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        out.push_str(&format!("{line}:{col}  {text}"));
        if let Some(label) = &step.label {
            out.push_str(&format!("   [{label}]"));
        }
        out.push('\n');
        let st = &step.state;
        // A callee's store lacks the caller's variables: names seen earlier still apply.
        let mut names = names_of(st);
        for (t, n) in &known {
            names.entry(t.clone()).or_insert_with(|| n.clone());
        }
        known = names.clone();
        out.push_str(&format!("  H = {{{}}}\n", heap(&st.heap, &names)));
        out.push_str(&format!("  G = {{{}}}\n", heap(&st.old, &names)));
        let mut vars: Vec<_> = st
            .store
            .iter()
            .map(|(k, v)| format!("{k} ↦ {}", term(v)))
            .collect();
        vars.sort();
        out.push_str(&format!("  Γ = [{}]\n", vars.join(", ")));
        let facts = st.pc.facts();
        let pc = |fs: &[Term]| {
            fs.iter()
                .map(|f| named(f, &names))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &shown_pc {
            Some(before) if before.len() <= facts.len() && facts[..before.len()] == before[..] => {
                let added = &facts[before.len()..];
                if added.is_empty() {
                    out.push_str("  Σ unchanged\n");
                } else {
                    out.push_str(&format!("  Σ += {{{}}}\n", pc(added)));
                }
            }
            _ => out.push_str(&format!("  Σ = {{{}}}\n", pc(&facts))),
        }
        shown_pc = Some(facts);
    }
    if let Some(g) = goal {
        out.push_str(&format!("failed goal: Σ ⊬ {}\n", named(g, &known)));
    }
    out
}
