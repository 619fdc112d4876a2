//! Non-termination by recurrent sets: a set `R` of states at location `l` with a
//! self-loop `t` such that every state of `R` satisfies `t`'s guard and `t` maps it back
//! into `R`, and a path from the start location reaching `R`. Then the run that follows
//! the path and then `t` forever is infinite.
//!
//! Two shapes of `R` are tried: the guard of `t` itself (checked closed:
//! `guard(x̄) ⇒ guard(ū(x̄))`, for loops without temporaries), and a fixed point
//! `R = {x̄₀}` with `guard(x̄₀, T̄) ∧ ū(x̄₀, T̄) = x̄₀` for some temporaries `T̄`.
//! The path to `R` is the shortest in the location graph, made concrete by a solver model
//! of its guards and updates (which gives the start values and every temporary).

use crate::graph;
use crate::its::{Its, Transition};
use crate::poly::Poly;
use crate::smt;
use std::time::{Duration, Instant};
use symex_expr::Term;
use symex_solver::Solver;

/// A non-termination witness: the start values, a path, and a cycle taken forever.
#[derive(Clone, Debug)]
pub struct Witness {
    /// Start values of the program variables.
    pub start: Vec<i128>,
    /// The transitions from the start location to the loop.
    pub path: Vec<usize>,
    /// The values of the temporaries on each step of the path.
    pub path_temps: Vec<Vec<i128>>,
    /// The first transition of the cycle (the self-loop taken forever, for a cycle of one).
    pub lp: usize,
    /// The transitions of the cycle, in order, starting with `lp`.
    pub cycle: Vec<usize>,
    /// The temporaries of each transition of `cycle`, as polynomials over the program
    /// variables' values before that step (mostly constants; `T = C + 3` keeps
    /// `T ≥ C + 1` enabled while `C` grows).
    pub cycle_temps: Vec<Vec<Poly>>,
    /// Whether `cycle` is a strategy rather than a sequence: each step takes the first
    /// transition of `cycle` that leaves the current location and is enabled with its
    /// temporaries ([`crate::closed_set`]).
    pub first_enabled: bool,
    /// The recurrent set, readable.
    pub recurrent_set: String,
}

/// Looks for a witness on every self-loop reachable from the start location, then on the
/// cycles that concrete runs end in ([`crate::recurrent`]).
pub fn prove(its: &Its, timeout: Duration) -> Option<Witness> {
    if its.has_multi_targets() {
        return None;
    }
    let mut solver = smt::solver(timeout);
    self_loops(its, solver.as_mut()).or_else(|| {
        // Houdini's queries are many and small: each gets a quick limit, all of them a few.
        let quick = timeout.min(RUN_QUERY_TIMEOUT);
        let mut solver = smt::solver(quick);
        // An SCC without exits needs no runs (T2's bio: 60 locations per lap).
        if let Some(w) = crate::inescapable::prove(its, solver.as_mut(), Instant::now() + 3 * quick)
        {
            return Some(w);
        }
        crate::recurrent::from_runs(its, solver.as_mut(), Instant::now() + 3 * quick).or_else(
            || crate::closed_set::from_run_tails(its, solver.as_mut(), Instant::now() + 3 * quick),
        )
    })
}

/// The time limit of each query of the search from runs.
const RUN_QUERY_TIMEOUT: Duration = Duration::from_secs(2);

/// Whether `t`'s guard or update mentions a temporary.
fn uses_temps(its: &Its, t: &Transition) -> bool {
    let n = its.arity();
    let temp = |p: &Poly| p.vars().iter().any(|&v| v >= n);
    t.guard.iter().any(|a| temp(&a.poly)) || t.update().iter().any(temp)
}

fn self_loops(its: &Its, solver: &mut dyn Solver) -> Option<Witness> {
    for (i, t) in its.transitions.iter().enumerate() {
        if t.source != t.target() {
            continue;
        }
        let Some(path) = graph::shortest_path(its, its.start, t.source) else {
            continue;
        };
        // Temporaries that nothing mentions (left by slicing) get any value.
        if !uses_temps(its, t) && closed(solver, t) {
            let name = |v| its.var_name(t, v);
            let set: Vec<String> = t
                .guard
                .iter()
                .map(|a| format!("{} {} 0", a.poly.display(&name), a.rel.symbol()))
                .collect();
            let r = |x: &[Term]| guard_terms(t, x, &[]);
            if let Some(w) = reach(its, solver, &path, &r) {
                return Some(Witness {
                    start: w.0,
                    path,
                    path_temps: w.1,
                    lp: i,
                    cycle: vec![i],
                    cycle_temps: vec![vec![Poly::default(); t.temps.len()]],
                    first_enabled: false,
                    recurrent_set: set.join(" && "),
                });
            }
        }
        if let Some(w) = fixed_point(its, solver, &path, t) {
            return Some(Witness {
                lp: i,
                cycle: vec![i],
                ..w
            });
        }
    }
    None
}

/// The guard of `t` over program-variable terms `x` and temporary terms `temps`.
fn guard_terms(t: &Transition, x: &[Term], temps: &[Term]) -> Vec<Term> {
    let n = x.len();
    let var = |v: usize| {
        if v < n {
            x[v].clone()
        } else {
            temps[v - n].clone()
        }
    };
    t.guard.iter().map(|a| smt::atom_term(a, &var)).collect()
}

/// `guard(x̄) ⇒ guard(ū(x̄))` is valid.
fn closed(solver: &mut dyn Solver, t: &Transition) -> bool {
    let var = |v: usize| smt::int_var("v", v);
    let guard: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
    let next: Vec<Term> = t.update().iter().map(|u| smt::poly_term(u, &var)).collect();
    let guard_next = guard_terms(t, &next, &[]);
    matches!(
        solver.must_be_true(&guard, &Term::and_all(&guard_next)),
        Ok(true)
    )
}

type Reached = (Vec<i128>, Vec<Vec<i128>>, Vec<i128>);

/// A model of the path's guards and updates ending in a state where `target` holds;
/// returns start values, the path's temporaries and the final state.
fn reach_state(
    its: &Its,
    solver: &mut dyn Solver,
    path: &[usize],
    target: &dyn Fn(&[Term]) -> Vec<Term>,
    extra: &dyn Fn(&[Term]) -> Vec<Term>,
) -> Option<Reached> {
    let n = its.arity();
    let start: Vec<Term> = (0..n).map(|v| smt::int_var("s_", v)).collect();
    let mut x = start.clone();
    // Every variable gets a (generous) bound, so that the model assigns each of them.
    let big = Term::int(1_000_000_000_000);
    let bounded = |v: &Term| vec![big.ineg().ile(v), v.ile(&big)];
    let mut constraints: Vec<Term> = start.iter().flat_map(bounded).collect();
    let mut temps_terms = Vec::new();
    for (k, &i) in path.iter().enumerate() {
        let t = &its.transitions[i];
        let temps: Vec<Term> = (0..t.temps.len())
            .map(|j| smt::int_var(&format!("p{k}_"), j))
            .collect();
        constraints.extend(guard_terms(t, &x, &temps));
        constraints.extend(temps.iter().flat_map(bounded));
        let var = |v: usize| {
            if v < n {
                x[v].clone()
            } else {
                temps[v - n].clone()
            }
        };
        x = t.update().iter().map(|u| smt::poly_term(u, &var)).collect();
        temps_terms.push(temps);
    }
    constraints.extend(target(&x));
    constraints.extend(extra(&x));
    let model = solver.model(&constraints).ok()??;
    let value = |t: &Term| model.eval(t).ok().and_then(|v| v.as_int());
    let s: Option<Vec<i128>> = start.iter().map(value).collect();
    let temps: Option<Vec<Vec<i128>>> = temps_terms
        .iter()
        .map(|ts| ts.iter().map(value).collect())
        .collect();
    let last: Option<Vec<i128>> = x.iter().map(value).collect();
    Some((s?, temps?, last?))
}

pub(crate) fn reach(
    its: &Its,
    solver: &mut dyn Solver,
    path: &[usize],
    target: &dyn Fn(&[Term]) -> Vec<Term>,
) -> Option<(Vec<i128>, Vec<Vec<i128>>)> {
    reach_state(its, solver, path, target, &|_| Vec::new()).map(|(s, t, _)| (s, t))
}

/// A reachable fixed point of `t`: `guard(x̄₀, T̄) ∧ ū(x̄₀, T̄) = x̄₀`.
fn fixed_point(
    its: &Its,
    solver: &mut dyn Solver,
    path: &[usize],
    t: &Transition,
) -> Option<Witness> {
    let m = t.temps.len();
    let loop_temps: Vec<Term> = (0..m).map(|j| smt::int_var("fp_", j)).collect();
    let target = |x: &[Term]| {
        let n = x.len();
        let mut c = guard_terms(t, x, &loop_temps);
        let var = |v: usize| {
            if v < n {
                x[v].clone()
            } else {
                loop_temps[v - n].clone()
            }
        };
        for (v, u) in t.update().iter().enumerate() {
            if *u != Poly::var(v) {
                c.push(smt::poly_term(u, &var).eq(&x[v]));
            }
        }
        c
    };
    // The loop temporaries are read back by a second query fixing the reached state.
    let (start, path_temps, last) = reach_state(its, solver, path, &target, &|_| Vec::new())?;
    let fixed: Vec<Term> = last.iter().map(|v| Term::int(*v)).collect();
    let mut query = target(&fixed);
    let big = Term::int(1_000_000_000_000);
    query.extend(
        loop_temps
            .iter()
            .flat_map(|v| [big.ineg().ile(v), v.ile(&big)]),
    );
    let model = solver.model(&query).ok()??;
    let lt: Option<Vec<i128>> = loop_temps
        .iter()
        .map(|x| model.eval(x).ok().and_then(|v| v.as_int()))
        .collect();
    let set: Vec<String> = its
        .vars
        .iter()
        .zip(&last)
        .map(|(name, v)| format!("{name} = {v}"))
        .collect();
    Some(Witness {
        start,
        path: path.to_vec(),
        path_temps,
        lp: 0,
        cycle: Vec::new(),
        cycle_temps: vec![lt?.into_iter().map(Poly::constant).collect()],
        first_enabled: false,
        recurrent_set: set.join(" && "),
    })
}

/// Replays the witness exactly (no solver): the path's guards hold with the recorded
/// temporaries, and then the cycle's guards hold for `steps` laps. A check of the
/// witness independent of how it was found. A cycle whose values leave the `i128` range
/// (`A' = 3·A + 1` does after about 80 laps) passes when it got at least
/// [`MIN_LAPS_BEFORE_OVERFLOW`] laps (or `steps`, when fewer) with every guard holding:
/// plain evaluation cannot go further, and the recurrent set was proved closed by the
/// solver over the unbounded integers.
pub fn replay(its: &Its, w: &Witness, steps: usize) -> bool {
    let mut x = w.start.clone();
    for (k, &i) in w.path.iter().enumerate() {
        match step(&its.transitions[i], &x, &w.path_temps[k]) {
            Step::Next(next) => x = next,
            _ => return false,
        }
    }
    if w.cycle.is_empty() || w.cycle.len() != w.cycle_temps.len() {
        return false;
    }
    if w.first_enabled {
        // About `steps` laps of the strategy, but not `steps` times all of a large SCC's
        // transitions (T2's bio: 190 of them, 121 variables: 1.9 million steps took 12 s).
        let per_lap = w.cycle.len().min(MAX_STRATEGY_LAP);
        return replay_strategy(its, w, x, steps * per_lap);
    }
    for lap in 0..steps {
        for (&i, temps) in w.cycle.iter().zip(&w.cycle_temps) {
            let t = &its.transitions[i];
            let temps: Option<Vec<i128>> = temps.iter().map(|p| p.eval(&x)).collect();
            let Some(temps) = temps else {
                return lap >= MIN_LAPS_BEFORE_OVERFLOW.min(steps);
            };
            if temps.len() != t.temps.len() {
                return false;
            }
            match step(t, &x, &temps) {
                Step::Next(next) => x = next,
                Step::Overflow => return lap >= MIN_LAPS_BEFORE_OVERFLOW.min(steps),
                Step::Blocked => return false,
            }
        }
    }
    true
}

/// Replays a strategy ([`Witness::first_enabled`]) for `steps` steps from `x` at the
/// location the path ends in.
fn replay_strategy(its: &Its, w: &Witness, mut x: Vec<i128>, steps: usize) -> bool {
    let mut at = w
        .path
        .last()
        .map_or(its.start, |&i| its.transitions[i].target());
    let enough = MIN_LAPS_BEFORE_OVERFLOW * w.cycle.len();
    for k in 0..steps {
        let mut next = None;
        for (&i, temps) in w.cycle.iter().zip(&w.cycle_temps) {
            let t = &its.transitions[i];
            if t.source != at || temps.len() != t.temps.len() {
                continue;
            }
            let values: Option<Vec<i128>> = temps.iter().map(|p| p.eval(&x)).collect();
            let Some(values) = values else {
                return k >= enough.min(steps);
            };
            match step(t, &x, &values) {
                Step::Next(y) => {
                    next = Some((y, t.target()));
                    break;
                }
                Step::Overflow => return k >= enough.min(steps),
                Step::Blocked => {}
            }
        }
        let Some((y, l)) = next else {
            return false;
        };
        x = y;
        at = l;
    }
    true
}

/// The longest lap [`replay`] counts for a strategy: a strategy over a large SCC is
/// replayed for `10·steps` steps, which is plenty to check a witness whose closure the
/// solver proved.
const MAX_STRATEGY_LAP: usize = 10;

/// Laps a replayed cycle must complete before its values may leave the `i128` range.
pub const MIN_LAPS_BEFORE_OVERFLOW: usize = 40;

/// The outcome of one step of a replay.
enum Step {
    Next(Vec<i128>),
    /// A guard is false.
    Blocked,
    /// A value left the `i128` range.
    Overflow,
}

fn step(t: &Transition, x: &[i128], temps: &[i128]) -> Step {
    let mut values = x.to_vec();
    values.extend_from_slice(temps);
    for a in &t.guard {
        match a.holds(&values) {
            Some(true) => {}
            Some(false) => return Step::Blocked,
            None => return Step::Overflow,
        }
    }
    match t.update().iter().map(|u| u.eval(&values)).collect() {
        Some(next) => Step::Next(next),
        None => Step::Overflow,
    }
}
