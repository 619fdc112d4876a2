//! Printing an ITS back in the KoAT format (parsing the output gives the same ITS), and as
//! a DOT graph of its locations.

use crate::its::{Atom, Goal, Its, Transition};
use crate::poly::Poly;
use std::fmt::Write;

/// `lhs op rhs` with the positive monomials on the left and the negated negative ones on
/// the right, as people write comparisons.
fn atom(its: &Its, t: &Transition, a: &Atom) -> String {
    let mut lhs = Poly::default();
    let mut rhs = Poly::default();
    for (m, c) in a.poly.terms() {
        let mono = Poly::constant(1).mul(&monomial(m));
        if c > 0 {
            lhs = lhs.add(&mono.scale(c));
        } else {
            rhs = rhs.add(&mono.scale(-c));
        }
    }
    let name = |v| its.var_name(t, v);
    let op = a.rel.symbol();
    format!("{} {op} {}", lhs.display(&name), rhs.display(&name))
}

fn monomial(m: &[(usize, u32)]) -> Poly {
    m.iter()
        .fold(Poly::constant(1), |p, (v, e)| p.mul(&Poly::var(*v).pow(*e)))
}

/// One rule of the `RULES` section.
pub fn rule(its: &Its, t: &Transition) -> String {
    let name = |v| its.var_name(t, v);
    let mut s = format!("{}({})", its.locations[t.source], its.vars.join(","));
    if t.cost == Poly::constant(1) {
        s.push_str(" -> ");
    } else {
        let _ = write!(s, " -{{{}}}> ", t.cost.display(&name));
    }
    let apps: Vec<String> = t
        .targets
        .iter()
        .map(|(l, args)| {
            let args: Vec<String> = args.iter().map(|a| a.display(&name)).collect();
            format!("{}({})", its.locations[*l], args.join(","))
        })
        .collect();
    if t.com {
        let _ = write!(s, "Com_{}({})", apps.len(), apps.join(","));
    } else {
        s.push_str(&apps[0]);
    }
    if !t.guard.is_empty() {
        let atoms: Vec<String> = t.guard.iter().map(|a| atom(its, t, a)).collect();
        let _ = write!(s, " :|: {}", atoms.join(" && "));
    }
    s
}

/// The whole ITS in the KoAT format.
pub fn to_koat(its: &Its) -> String {
    let goal = match its.goal {
        Goal::Complexity => "COMPLEXITY",
        Goal::Termination => "TERMINATION",
    };
    let mut vars = its.vars.clone();
    for t in &its.transitions {
        for v in &t.temps {
            if !vars.contains(v) {
                vars.push(v.clone());
            }
        }
    }
    let mut s = format!(
        "(GOAL {goal})\n(STARTTERM (FUNCTIONSYMBOLS {}))\n(VAR {})\n(RULES\n",
        its.locations[its.start],
        vars.join(" ")
    );
    for t in &its.transitions {
        let _ = writeln!(s, "  {}", rule(its, t));
    }
    s.push_str(")\n");
    s
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The location graph in DOT: one node per location (the start doubly circled), one edge
/// per transition and target, labelled with its number, guard and update.
pub fn to_dot(its: &Its) -> String {
    let mut s = String::from("digraph its {\n  node [shape=circle];\n");
    for (i, l) in its.locations.iter().enumerate() {
        let shape = if i == its.start {
            " shape=doublecircle"
        } else {
            ""
        };
        let _ = writeln!(s, "  n{i} [label=\"{}\"{shape}];", dot_escape(l));
    }
    for (k, t) in its.transitions.iter().enumerate() {
        let name = |v| its.var_name(t, v);
        let guard: Vec<String> = t.guard.iter().map(|a| atom(its, t, a)).collect();
        for (target, args) in &t.targets {
            let update: Vec<String> = args
                .iter()
                .enumerate()
                .filter(|(i, a)| **a != Poly::var(*i))
                .map(|(i, a)| format!("{}' = {}", its.vars[i], a.display(&name)))
                .collect();
            let label = format!("t{k}: {} | {}", guard.join(" && "), update.join(", "));
            let _ = writeln!(
                s,
                "  n{} -> n{target} [label=\"{}\"];",
                t.source,
                dot_escape(&label)
            );
        }
    }
    s.push_str("}\n");
    s
}
