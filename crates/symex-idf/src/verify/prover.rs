//! `Σ ⊢ ψ`: entailment from the path condition, asked of the solver layers
//! (`symex-solver`) only when cheap syntactic checks do not settle it.
use super::state::PathCondition;
use symex_expr::{Op, Term};
use symex_solver::Solver;

pub struct Prover {
    solver: Box<dyn Solver>,
    /// Queries settled without the solver / sent to it.
    pub syntactic: u64,
    pub queries: u64,
    unknown: bool,
}

impl Prover {
    pub fn new(solver: Box<dyn Solver>) -> Prover {
        Prover {
            solver,
            syntactic: 0,
            queries: 0,
            unknown: false,
        }
    }

    /// Whether some query of the current member got `unknown` (then a failure may be spurious).
    pub fn saw_unknown(&self) -> bool {
        self.unknown
    }

    pub fn reset_unknown(&mut self) {
        self.unknown = false;
    }

    pub fn solver(&self) -> &dyn Solver {
        self.solver.as_ref()
    }

    /// Settles `Σ ⊢ goal` without the solver when the goal is literally true, is (a conjunct
    /// of) a fact of Σ, or Σ holds `false`.
    fn syntactic(pc: &PathCondition, goal: &Term) -> Option<bool> {
        if goal.is_true() || pc.contains(goal) || pc.contains(&Term::ff()) {
            return Some(true);
        }
        if let Op::And = goal.op() {
            if goal
                .args()
                .iter()
                .all(|g| Self::syntactic(pc, g) == Some(true))
            {
                return Some(true);
            }
        }
        // `a ≠ b` is also entailed by `b ≠ a`.
        if let Op::Not = goal.op() {
            let inner = goal.arg(0);
            if let Op::Eq = inner.op() {
                let flipped = inner.arg(1).eq(inner.arg(0)).not();
                if pc.contains(&flipped) {
                    return Some(true);
                }
            }
        }
        None
    }

    /// `Σ ⊢ goal`; an `unknown` from the solver counts as "not proved" and is remembered.
    /// The solver is asked first with the facts the goal reaches ([`PathCondition::slice`]);
    /// only when they do not entail it is it asked with all of Σ (which may be unsatisfiable,
    /// and then entails everything).
    pub fn proves(&mut self, pc: &PathCondition, goal: &Term) -> bool {
        if let Some(b) = Self::syntactic(pc, goal) {
            self.syntactic += 1;
            return b;
        }
        if !goal.is_false() && self.sliced(pc, goal) == Some(true) {
            return true;
        }
        let facts = pc.facts();
        self.ask(&facts, goal)
    }

    /// `Σ ⊢ goal` asked with the facts the goal reaches only: exact when Σ is satisfiable,
    /// and may miss a proof on a path whose facts contradict each other elsewhere. For
    /// questions where "not proved" only costs work — whether a branch is feasible, which
    /// chunk matches — never for an obligation.
    pub fn proves_sliced(&mut self, pc: &PathCondition, goal: &Term) -> bool {
        if let Some(b) = Self::syntactic(pc, goal) {
            self.syntactic += 1;
            return b;
        }
        // Σ holds the goal's negation: a satisfiable Σ does not entail the goal (a linked
        // list's `next != null ? … : …` asks this at every node, `next` being a fresh object).
        if pc.contains(&goal.not()) {
            self.syntactic += 1;
            return false;
        }
        match self.sliced(pc, goal) {
            Some(b) => b,
            None => {
                let facts = pc.facts();
                self.ask(&facts, goal)
            }
        }
    }

    /// The answer from the slice of Σ for `goal`, `None` when the slice is all of Σ.
    fn sliced(&mut self, pc: &PathCondition, goal: &Term) -> Option<bool> {
        let slice = pc.slice(goal);
        (slice.len() < pc.len()).then(|| self.ask(&slice, goal))
    }

    fn ask(&mut self, facts: &[Term], goal: &Term) -> bool {
        self.queries += 1;
        match self.solver.must_be_true(facts, goal) {
            Ok(b) => b,
            Err(_) => {
                self.unknown = true;
                false
            }
        }
    }
}
