//! The integer transition system: locations, program variables, transitions
//! `l(x̄) → l'(ē) :|: guard` with temporaries and costs.

use crate::poly::Poly;

/// What a `.koat` file asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// `(GOAL COMPLEXITY)`: a worst-case runtime bound.
    Complexity,
    /// `(GOAL TERMINATION)`: YES / NO / MAYBE.
    Termination,
}

/// How an atom compares its polynomial with zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rel {
    /// `p ≥ 0` (strict comparisons are normalised: over ℤ, `a < b` is `b − a − 1 ≥ 0`).
    Ge,
    /// `p = 0`.
    Eq,
    /// `p ≠ 0` (a disjunction; preprocessing splits it).
    Ne,
}

impl Rel {
    /// The operator as KoAT writes it (`>=`, `=`, `!=`).
    pub fn symbol(self) -> &'static str {
        match self {
            Rel::Ge => ">=",
            Rel::Eq => "=",
            Rel::Ne => "!=",
        }
    }
}

/// One comparison of a guard: `poly rel 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom {
    /// The polynomial compared with zero.
    pub poly: Poly,
    /// The comparison.
    pub rel: Rel,
}

impl Atom {
    /// `poly ≥ 0`.
    pub fn ge0(poly: Poly) -> Atom {
        Atom { poly, rel: Rel::Ge }
    }

    /// Whether the atom holds under `values` (`None` on overflow).
    pub fn holds(&self, values: &[i128]) -> Option<bool> {
        let v = self.poly.eval(values)?;
        Some(match self.rel {
            Rel::Ge => v >= 0,
            Rel::Eq => v == 0,
            Rel::Ne => v != 0,
        })
    }
}

/// A transition `source(x̄) → Com_k(target_1(ē_1), …) :|: guard`, weighing `cost`.
///
/// Variables `0..n` are the program variables (the source's arguments), `n..n+temps.len()`
/// the temporaries: free variables of the guard, updates and cost, chosen
/// nondeterministically each time the transition is taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    /// The source location.
    pub source: usize,
    /// The target locations with their argument updates (one for an ordinary rule).
    pub targets: Vec<(usize, Vec<Poly>)>,
    /// The guard, a conjunction.
    pub guard: Vec<Atom>,
    /// The cost of taking the transition (1 unless annotated).
    pub cost: Poly,
    /// Names of the temporaries.
    pub temps: Vec<String>,
    /// Whether the rule was written with `Com_k(…)`.
    pub com: bool,
}

impl Transition {
    /// The only target (most transitions have one).
    pub fn target(&self) -> usize {
        self.targets[0].0
    }

    /// The updates of the only target.
    pub fn update(&self) -> &[Poly] {
        &self.targets[0].1
    }
}

/// An integer transition system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Its {
    /// The goal of the file.
    pub goal: Goal,
    /// Location names.
    pub locations: Vec<String>,
    /// The start location.
    pub start: usize,
    /// Names of the program variables (the arguments of every location).
    pub vars: Vec<String>,
    /// The transitions.
    pub transitions: Vec<Transition>,
}

impl Its {
    /// The number of program variables.
    pub fn arity(&self) -> usize {
        self.vars.len()
    }

    /// The name of variable `v` of transition `t` (program variable or temporary).
    pub fn var_name(&self, t: &Transition, v: usize) -> String {
        if v < self.arity() {
            self.vars[v].clone()
        } else {
            t.temps[v - self.arity()].clone()
        }
    }

    /// The location called `name`, added if new.
    pub fn location(&mut self, name: &str) -> usize {
        match self.locations.iter().position(|l| l == name) {
            Some(i) => i,
            None => {
                self.locations.push(name.to_string());
                self.locations.len() - 1
            }
        }
    }

    /// Whether some transition has more than one target (`Com_k`, k > 1).
    pub fn has_multi_targets(&self) -> bool {
        self.transitions.iter().any(|t| t.targets.len() > 1)
    }
}
