//! Recurrent sets found from concrete runs (a companion of [`crate::nontermination`]):
//! the interpreter runs the ITS from a few random start values; each cycle of a run (the
//! transitions between two visits of one location, with the temporaries the run chose —
//! as constants, else as offsets from a variable their guard compares them with;
//! those at the end of a run first) is composed into one transition
//! `x̄ ↦ ū(x̄)` with guard `G(x̄)`, and a recurrent set `R` at that location is searched
//! among conjunctions of candidate atoms, Houdini style: start with every candidate that
//! holds at the state `s` the run had there, and drop those that some state of `R` does
//! not keep after a lap (a Z3 model of `R(x̄) ∧ ¬R(ū(x̄))`), until `R(x̄) ⇒ R(ū(x̄))`
//! is valid. The guard atoms are among the candidates and must survive, so `R ⇒ G`;
//! `s ∈ R` throughout, and the run reached `s`: the run's prefix up to its first state in
//! `R` followed by the cycle forever (with the same temporaries on every lap) is an
//! infinite run.
//!
//! The candidates, all evaluated at `s`: the atoms of `G`; `v ≥ s_v` and `v ≤ s_v` for
//! each variable (what the loop keeps fixed or moves one way: T2's `non_term` keeps `B`
//! and so `A − B` grows); the direction of each variable's change over a lap
//! (`u_v(x̄) − v ≥ 0` or `≤ 0`); and the guard atoms of the transitions leaving the
//! location, or their negations (the exits that never become enabled).

use crate::interp::{Interpreter, Rng, Run, RunConfig};
use crate::its::{Atom, Its, Rel};
use crate::nontermination::Witness;
use crate::poly::Poly;
use crate::smt;
use std::time::Instant;
use symex_expr::Term;
use symex_solver::Solver;

/// Runs tried (each with its own seed and start values).
const RUNS: u64 = 30;

/// Steps after which a run counts as possibly infinite.
const MAX_STEPS: usize = 600;

/// Cycles tried in all (distinct sequences of transitions).
const MAX_TRIES: usize = 40;

/// The longest cycle composed.
const MAX_CYCLE: usize = 12;

/// A cycle of a run: its steps (transition and temporaries), where it starts and the
/// state it starts from.
struct Lasso {
    cycle: Vec<(usize, Vec<Poly>)>,
    location: usize,
    state: Vec<i128>,
}

/// A witness from the cycles of a few runs, or `None` (also past `deadline`).
pub fn from_runs(its: &Its, solver: &mut dyn Solver, deadline: Instant) -> Option<Witness> {
    if its.has_multi_targets() {
        return None;
    }
    // Runs only take transitions from which a cycle is still reachable: a chained start
    // location with many exits into dead ends (Flores-Montoya's `catmouse`: 1 of 9)
    // would otherwise end most runs before the loop.
    let (live, origin) = towards_cycles(its);
    let mut interp = Interpreter::new(&live);
    let mut rng = Rng::new(7);
    let mut tried: Vec<Vec<usize>> = Vec::new();
    for seed in 1..=RUNS {
        // Small start values first, then larger ones (loops entered only above some
        // size), every other run non-negative (guards `A ≥ 1 ∧ B ≥ 1` on the way in).
        let (lo, hi) =
            [(-3, 3), (0, 10), (-10, 10), (0, 100), (-100, 100)][(seed as usize - 1) % 5];
        let start: Vec<i128> = (0..its.arity()).map(|_| rng.range(lo, hi)).collect();
        let cfg = RunConfig {
            max_steps: MAX_STEPS,
            seed,
            use_solver: false,
            record: true,
            ..RunConfig::default()
        };
        let mut run = interp.run(&start, &cfg);
        for t in &mut run.taken {
            *t = origin[*t];
        }
        for (j, k) in cycles(&run.trace) {
            let ids = run.taken[j..k].to_vec();
            if tried.contains(&ids) {
                continue;
            }
            tried.push(ids);
            // The run's temporaries as constants, then those the guard pins to a value
            // (`F ≥ A ∧ A ≥ F`) as that value, then (when that fails) relative to a
            // variable their guard compares them with.
            for mode in [Temps::Constant, Temps::Pinned, Temps::Relative] {
                if Instant::now() > deadline || tried.len() > MAX_TRIES {
                    return None;
                }
                let Some(lasso) = lasso(its, &run, j, k, mode) else {
                    continue;
                };
                if let Some(set) = recurrent(its, solver, &lasso) {
                    return Some(witness(its, &run, &start, &lasso, &set));
                }
            }
        }
    }
    None
}

/// How the temporaries of a lasso are chosen.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Temps {
    /// The run's values.
    Constant,
    /// The value the guard pins them to (a polynomial over the program variables),
    /// else the run's.
    Pinned,
    /// Pinned, else the run's value as an offset from a compared program variable.
    Relative,
}

/// The transitions of `its` whose target can still reach a cycle (all of them when
/// none can), as an ITS of their own, and the index in `its` of each.
pub(crate) fn towards_cycles(its: &Its) -> (Its, Vec<usize>) {
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    let mut live = vec![false; its.locations.len()];
    for locs in crate::graph::sccs(its, &all) {
        if !crate::graph::inside(its, &all, &locs).is_empty() {
            for l in locs {
                live[l] = true;
            }
        }
    }
    // Backwards to a fixed point: a location is live when some transition reaches one.
    loop {
        let before = live.iter().filter(|&&b| b).count();
        for t in &its.transitions {
            if live[t.target()] {
                live[t.source] = true;
            }
        }
        if live.iter().filter(|&&b| b).count() == before {
            break;
        }
    }
    let origin: Vec<usize> = all
        .into_iter()
        .filter(|&i| live[its.transitions[i].target()])
        .collect();
    if origin.is_empty() {
        return (its.clone(), (0..its.transitions.len()).collect());
    }
    let mut out = its.clone();
    out.transitions = origin.iter().map(|&i| its.transitions[i].clone()).collect();
    (out, origin)
}

/// The polynomial over the program variables that `t`'s guard pins its temporary `q`
/// to: an equality, or two opposite inequalities, `±T + p(x̄) = 0` (`None` when there
/// is none).
pub(crate) fn pinned(its: &Its, t: &crate::its::Transition, q: usize) -> Option<Poly> {
    let n = its.arity();
    let tv = n + q;
    let solved = |p: &Poly| -> Option<Poly> {
        let c = p.linear_coeff(tv);
        if c.abs() != 1 || !p.is_linear() || p.vars().iter().any(|&v| v >= n && v != tv) {
            return None;
        }
        // c·T + rest = 0: T = −c·rest.
        Some(p.sub(&Poly::var(tv).scale(c)).scale(-c))
    };
    for a in &t.guard {
        let pin = match a.rel {
            Rel::Eq => true,
            Rel::Ge => t
                .guard
                .iter()
                .any(|b| b.rel == Rel::Ge && b.poly == a.poly.scale(-1)),
            Rel::Ne => false,
        };
        if pin {
            if let Some(p) = solved(&a.poly) {
                return Some(p);
            }
        }
    }
    None
}

/// The lasso of the steps `j..k` of `run`, its temporaries chosen by `mode` (`None`
/// when the mode changes none of the run's values).
fn lasso(its: &Its, run: &Run, j: usize, k: usize, mode: Temps) -> Option<Lasso> {
    let n = its.arity();
    let mut moved = false;
    let cycle = (j..k)
        .map(|i| {
            let t = &its.transitions[run.taken[i]];
            let state = &run.trace[i].1;
            let temps = run.temps[i]
                .iter()
                .enumerate()
                .map(|(q, &value)| {
                    if mode != Temps::Constant {
                        if let Some(p) = pinned(its, t, q) {
                            moved = true;
                            return p;
                        }
                    }
                    let partner = (mode == Temps::Relative)
                        .then(|| {
                            t.guard
                                .iter()
                                .filter(|a| a.poly.vars().contains(&(n + q)))
                                .flat_map(|a| a.poly.vars())
                                .find(|&w| w < n)
                        })
                        .flatten();
                    match partner {
                        Some(w) => {
                            moved = true;
                            Poly::var(w).add(&Poly::constant(value - state[w]))
                        }
                        None => Poly::constant(value),
                    }
                })
                .collect();
            (run.taken[i], temps)
        })
        .collect();
    (mode == Temps::Constant || moved).then(|| Lasso {
        cycle,
        location: run.trace[j].0,
        state: run.trace[j].1.clone(),
    })
}

/// The cycles `(j, k)` of a trace: the steps between a visit of a location (index `j`)
/// and a later visit `k`, at most [`MAX_CYCLE`] steps long; those at the end of the
/// trace first (a run cut by the step limit is likely in an infinite loop there).
fn cycles(trace: &[(usize, Vec<i128>)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for j in (0..trace.len()).rev() {
        let ends =
            (j + 1..trace.len().min(j + 1 + MAX_CYCLE)).filter(|&k| trace[k].0 == trace[j].0);
        out.extend(ends.map(|k| (j, k)));
    }
    out
}

/// `p` with each variable `v` replaced by `f(v)`; `None` on overflow.
fn substitute(p: &Poly, f: &dyn Fn(usize) -> Poly) -> Option<Poly> {
    let mut out = Poly::default();
    for (m, c) in p.terms() {
        let mut prod = Poly::constant(c);
        for (v, e) in m {
            for _ in 0..*e {
                prod = prod.checked_mul(&f(*v))?;
            }
        }
        out = out.checked_add(&prod)?;
    }
    Some(out)
}

/// The cycle as one transition over the program variables: its guard atoms and update
/// (temporaries replaced by their polynomials over the values before their step).
fn compose(its: &Its, cycle: &[(usize, Vec<Poly>)]) -> Option<(Vec<Atom>, Vec<Poly>)> {
    let n = its.arity();
    let mut x: Vec<Poly> = (0..n).map(Poly::var).collect();
    let mut guard = Vec::new();
    for (i, temps) in cycle {
        let t = &its.transitions[*i];
        let temps: Vec<Poly> = temps
            .iter()
            .map(|p| substitute(p, &|w| x[w].clone()))
            .collect::<Option<_>>()?;
        let at = |v: usize| {
            if v < n {
                x[v].clone()
            } else {
                temps.get(v - n).cloned().unwrap_or_default()
            }
        };
        for a in &t.guard {
            let poly = substitute(&a.poly, &at)?;
            if poly.as_constant().is_none() {
                guard.push(Atom { poly, rel: a.rel });
            }
        }
        x = t
            .update()
            .iter()
            .map(|u| substitute(u, &at))
            .collect::<Option<_>>()?;
    }
    Some((guard, x))
}

/// `p ≥ 0` as the atoms that hold at `s`: `p ≥ 0` itself or its negation `−p − 1 ≥ 0`.
fn side(p: &Poly, s: &[i128]) -> Option<Atom> {
    let v = p.eval(s)?;
    Some(if v >= 0 {
        Atom::ge0(p.clone())
    } else {
        Atom::ge0(p.scale(-1).sub(&Poly::constant(1)))
    })
}

/// The candidate atoms of a lasso, all true at its state (the guard atoms first).
fn candidates(its: &Its, lasso: &Lasso, guard: &[Atom], update: &[Poly]) -> Vec<Atom> {
    let n = its.arity();
    let s = &lasso.state;
    let mut out: Vec<Atom> = guard.to_vec();
    let mut push = |a: Option<Atom>| {
        if let Some(a) = a {
            if a.poly.as_constant().is_none() && !out.contains(&a) {
                out.push(a);
            }
        }
    };
    for v in 0..n {
        let x = Poly::var(v);
        push(Some(Atom::ge0(x.sub(&Poly::constant(s[v])))));
        push(Some(Atom::ge0(Poly::constant(s[v]).sub(&x))));
        let delta = update[v].sub(&x);
        if delta.as_constant() != Some(0) {
            // The direction it moves in: `delta ≥ 0` or `delta ≤ 0` at `s`.
            match delta.eval(s) {
                Some(d) if d >= 0 => push(Some(Atom::ge0(delta))),
                Some(_) => push(Some(Atom::ge0(delta.scale(-1)))),
                None => {}
            }
        }
    }
    for t in its
        .transitions
        .iter()
        .filter(|t| t.source == lasso.location)
    {
        for a in &t.guard {
            if a.poly.vars().iter().any(|&v| v >= n) {
                continue;
            }
            match a.rel {
                Rel::Ge => push(side(&a.poly, s)),
                Rel::Eq => {
                    push(side(&a.poly, s));
                    push(side(&a.poly.scale(-1), s));
                }
                Rel::Ne => {}
            }
        }
    }
    out
}

/// The recurrent set of a lasso (see the module comment): atoms, the guard's first.
fn recurrent(its: &Its, solver: &mut dyn Solver, lasso: &Lasso) -> Option<Vec<Atom>> {
    let (guard, update) = compose(its, &lasso.cycle)?;
    let required = guard.len();
    let mut set = candidates(its, lasso, &guard, &update);
    // Every candidate holds at the run's state (the guard atoms because the run took the
    // cycle from there with these temporaries).
    if set.iter().any(|a| a.holds(&lasso.state) != Some(true)) {
        return None;
    }
    let var = |v: usize| smt::int_var("r", v);
    let next: Vec<Term> = update.iter().map(|u| smt::poly_term(u, &var)).collect();
    let at_next = |v: usize| next[v].clone();
    // At most one round per candidate: each round drops at least one.
    for _ in 0..=set.len() {
        let premise: Vec<Term> = set.iter().map(|a| smt::atom_term(a, &var)).collect();
        let kept: Vec<Term> = set.iter().map(|a| smt::atom_term(a, &at_next)).collect();
        let mut query = premise;
        query.push(Term::and_all(&kept).not());
        let model = match solver.model(&query) {
            Ok(None) => return Some(set),
            Ok(Some(m)) => m,
            Err(_) => return None,
        };
        let values: Vec<i128> = (0..its.arity())
            .map(|v| model.value_of(&var(v)).as_int())
            .collect::<Option<_>>()?;
        let after: Vec<i128> = update
            .iter()
            .map(|u| u.eval(&values))
            .collect::<Option<_>>()?;
        let before = set.len();
        let mut k = 0;
        let mut lost_guard = false;
        set.retain(|a| {
            let keep = a.holds(&after) == Some(true);
            if !keep && k < required {
                lost_guard = true;
            }
            k += 1;
            keep
        });
        if lost_guard || set.len() == before {
            return None;
        }
        // The guard atoms stay at the front: the first `required` are still the guard's.
    }
    None
}

/// The witness of a recurrent set found on a cycle of `run`: the run's prefix up to its
/// first state in the set (at the cycle's location), then the cycle forever.
fn witness(its: &Its, run: &Run, start: &[i128], lasso: &Lasso, set: &[Atom]) -> Witness {
    let inside = |(l, x): &(usize, Vec<i128>)| {
        *l == lasso.location && set.iter().all(|a| a.holds(x) == Some(true))
    };
    let first = run.trace.iter().position(inside).unwrap_or(0);
    let name = |v: usize| its.vars[v].clone();
    let shown: Vec<String> = set
        .iter()
        .map(|a| format!("{} {} 0", a.poly.display(&name), a.rel.symbol()))
        .collect();
    Witness {
        start: start.to_vec(),
        path: run.taken[..first].to_vec(),
        path_temps: run.temps[..first].to_vec(),
        lp: lasso.cycle[0].0,
        cycle: lasso.cycle.iter().map(|(i, _)| *i).collect(),
        cycle_temps: lasso.cycle.iter().map(|(_, t)| t.clone()).collect(),
        first_enabled: false,
        recurrent_set: shown.join(" && "),
    }
}
