//! Terms in the paper's notation (`t.x`, `Cell.getX(fromInt(v), t)`, `a ≠ null`) for traces
//! and messages, rather than SMT-LIB.
use symex_expr::{Op, Term};

pub fn term(t: &Term) -> String {
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
        _ => t.to_string(),
    }
}
