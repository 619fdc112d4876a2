//! `⟨a⟩_FO` and entailment `⊨ ⟨a⟩ ⇒ φ` ([B] Def. 2) over linear integer arithmetic, through
//! `symex-solver` (Z3). The formula of a state is its KB; the type ranges of the variables are
//! already atoms of the KB (added when each variable is made). An unknown answer is never
//! taken as a proof: `entails` says no, `feasible` says yes.

use crate::state::const_truth;
use std::time::Duration;
use symex_expr::Term;
use symex_its::{smt, Atom};
use symex_solver::Solver;

pub struct Kb {
    solver: Box<dyn Solver>,
    pub queries: u64,
}

fn var(v: usize) -> Term {
    smt::int_var("v", v)
}

/// The term of an atom over the state's variables.
pub fn term(a: &Atom) -> Term {
    smt::atom_term(a, &var)
}

impl Kb {
    pub fn new(timeout: Duration) -> Kb {
        Kb {
            solver: smt::solver(timeout),
            queries: 0,
        }
    }

    /// Whether `kb ∧ extra` may be satisfiable (unknown counts as satisfiable).
    pub fn feasible(&mut self, kb: &[Atom], extra: &[Atom]) -> bool {
        let mut terms = Vec::new();
        for a in extra {
            match const_truth(a) {
                Some(true) => {}
                Some(false) => return false,
                None => terms.push(term(a)),
            }
        }
        if terms.is_empty() {
            // Literal conditions: the KB itself is satisfiable (it describes reached states).
            return true;
        }
        terms.extend(kb.iter().map(term));
        self.queries += 1;
        !matches!(self.solver.is_sat(&terms), Ok(false))
    }

    /// Whether `kb ⊨ φ` for a formula term.
    pub fn entails_term(&mut self, kb: &[Atom], phi: &Term) -> bool {
        let mut terms: Vec<Term> = kb.iter().map(term).collect();
        terms.push(phi.not());
        self.queries += 1;
        matches!(self.solver.is_sat(&terms), Ok(false))
    }

    /// Whether `kb ⊨ a`.
    pub fn entails(&mut self, kb: &[Atom], a: &Atom) -> bool {
        match const_truth(a) {
            Some(t) => t,
            None => self.entails_term(kb, &term(a)),
        }
    }

    /// A model of `kb ∧ extra`: values of variables `0..n` (those absent are 0).
    pub fn model(&mut self, kb: &[Atom], extra: &[Term], n: usize) -> Option<Vec<i128>> {
        let mut terms: Vec<Term> = kb.iter().map(term).collect();
        terms.extend(extra.iter().cloned());
        self.queries += 1;
        let m = self.solver.model(&terms).ok()??;
        Some(
            (0..n)
                .map(|v| m.get(&var(v)).and_then(|x| x.as_int()).unwrap_or(0))
                .collect(),
        )
    }
}
