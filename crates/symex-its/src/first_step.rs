//! The constant lower bound `Omega(1)`: some start state lets a transition of cost at least 1
//! leave the start location, so some run costs at least 1. It is the tight lower side of an
//! `O(1)` bound, and the lower side the competition scores where no growing family is found.
//!
//! The step is found by Z3 (a model of the transition's guard) and taken again by plain
//! evaluation before it is claimed.

use crate::its::Its;
use crate::lower_bound;
use crate::smt;
use std::time::Duration;
use symex_solver::Solver;

/// A start state and a transition that leaves the start location from it at cost ≥ 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstStep {
    pub start: Vec<i128>,
    pub transition: usize,
    pub temps: Vec<i128>,
}

/// Each query is a guard of one transition: tiny.
const QUERY_TIMEOUT: Duration = Duration::from_secs(2);

/// Looks for a [`FirstStep`], trying the start location's transitions in order; only
/// transitions of constant cost ≥ 1 count (a run's cost is then at least its number of steps).
pub fn prove(its: &Its) -> Option<FirstStep> {
    let mut solver = smt::solver(QUERY_TIMEOUT);
    (0..its.transitions.len())
        .filter(|&i| its.transitions[i].source == its.start)
        .filter(|&i| {
            its.transitions[i]
                .cost
                .as_constant()
                .is_some_and(|c| c >= 1)
        })
        .find_map(|i| try_step(its, solver.as_mut(), i))
}

fn try_step(its: &Its, solver: &mut dyn Solver, i: usize) -> Option<FirstStep> {
    let t = &its.transitions[i];
    let var = |v: usize| smt::int_var("v", v);
    let model = solver.model(&smt::guard_terms(&t.guard, &var)).ok()??;
    let value = |v: usize| -> Option<i128> { model.eval(&var(v)).ok().and_then(|x| x.as_int()) };
    let n = its.arity();
    let start: Vec<i128> = (0..n).map(value).collect::<Option<_>>()?;
    let temps: Vec<i128> = (n..n + t.temps.len()).map(value).collect::<Option<_>>()?;
    let (_, cost) = lower_bound::step(t, &start, &temps)?;
    (cost >= 1).then_some(FirstStep {
        start,
        transition: i,
        temps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_koat;

    #[test]
    fn a_guarded_first_transition_gets_a_start_state_that_enables_it() {
        let its = parse_koat(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS a))\n(VAR X Y)\n(RULES\n\
             a(X,Y) -{0}> b(X,Y)\n a(X,Y) -> c(X,Y) :|: X >= 5 && Y = X + T\n)",
        )
        .unwrap();
        let s = prove(&its).expect("a first step");
        assert_eq!(s.transition, 1);
        assert!(s.start[0] >= 5 && s.start[1] == s.start[0] + s.temps[0]);
        let never = parse_koat(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS a))\n(VAR X)\n(RULES\n\
             a(X) -> b(X) :|: X >= 1 && X <= 0\n)",
        )
        .unwrap();
        assert_eq!(prove(&never), None);
    }
}
