//! Recurrent sets closed under *several* transitions (a companion of [`crate::recurrent`],
//! whose sets are closed under one fixed cycle): a run that does not end within the step
//! limit spends its second half in some set `S` of transitions over some locations `L`
//! (T2's protocol loops, Flores-Montoya's `catmouse`: the cycles vary in length and
//! order). Each transition `t ∈ S` gets its temporaries as polynomials over the program
//! variables (a *strategy*: pinned by the guard, else the run's value, or an offset from
//! a variable when the run's values kept one), and each location `l ∈ L` a set `R_l` —
//! a conjunction of candidate atoms that hold at every state of the tail at `l` — shrunk
//! Houdini style until it is
//!
//! * **closed**: `R_l(x̄) ∧ g_t(x̄, T̄_t(x̄)) ⇒ R_{l'}(ū_t(x̄, T̄_t(x̄)))` for every
//!   `t: l → l'` in `S` (Z3 models of a violation drop the atoms the successor breaks),
//! * and **live**: `R_l(x̄) ⇒ ∨_{t ∈ S from l} g_t(x̄, T̄_t(x̄))` (checked once, after).
//!
//! Then from any state of some `R_l` the strategy "take the first transition of `S`
//! enabled with its temporaries" never stops, and the run's state at the start of the
//! tail is in `R` (every candidate held there, Houdini only drops atoms): the run's
//! prefix followed by the strategy is an infinite run. The candidates, per location over
//! the tail's states there: each variable's minimum and maximum; for pairs of variables
//! the guards mention or `S` changes, the ranges of `x − y` and `x + y` (an octagon
//! hull); the temporary-free guard atoms of the transitions leaving `l` or their
//! negations, when one side holds at every state of the tail.

use crate::interp::{Interpreter, Rng, Run, RunConfig, RunEnd};
use crate::its::{Atom, Its, Rel, Transition};
use crate::nontermination::Witness;
use crate::poly::Poly;
use crate::smt;
use std::collections::HashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;
use symex_expr::Term;
use symex_solver::Solver;

/// Runs tried.
const RUNS: u64 = 16;

/// Steps after which a run counts as possibly infinite (the second half is the tail).
const MAX_STEPS: usize = 800;

/// Variables paired for the octagon candidates (the first ones the guards mention).
const MAX_PAIRED: usize = 12;

/// Candidates per location (the cheaper kinds first).
const MAX_CANDIDATES: usize = 400;

/// A recurrent set closed under the transitions of a run's tail, or `None` (also past
/// `deadline`).
pub fn from_run_tails(its: &Its, solver: &mut dyn Solver, deadline: Instant) -> Option<Witness> {
    if its.has_multi_targets() {
        return None;
    }
    let (live, origin) = crate::recurrent::towards_cycles(its);
    let mut rng = Rng::new(11);
    let mut tried: Vec<BTreeSet<usize>> = Vec::new();
    let mut survival = Survival::new(&live);
    for seed in 1..=RUNS {
        if Instant::now() > deadline {
            return None;
        }
        let (lo, hi) = [(0, 10), (-3, 3), (-10, 10), (0, 100)][(seed as usize - 1) % 4];
        let start: Vec<i128> = (0..its.arity()).map(|_| rng.range(lo, hi)).collect();
        let Some(mut run) = survival.run(&start, seed, deadline) else {
            continue;
        };
        for t in &mut run.taken {
            *t = origin[*t];
        }
        let h = run.taken.len() / 2;
        let set: BTreeSet<usize> = run.taken[h..].iter().copied().collect();
        if tried.contains(&set) {
            continue;
        }
        tried.push(set);
        if let Some(w) = closed_tail(its, solver, &run, &start, h, deadline) {
            return Some(w);
        }
    }
    None
}

/// Runs that avoid ending: each step is the first of the random continuation (of
/// [`LOOKAHEAD`] steps, [`CONTINUATIONS`] tried) that got furthest, so that a run stays
/// in a loop that random choices leave quickly (a coin that must come up right every
/// time: T2's `randomwalk`, `spiral`'s narrow arms).
struct Survival<'a> {
    its: &'a Its,
    /// The ITS started at each location (made when first needed).
    at: HashMap<usize, Its>,
}

/// Steps simulated per continuation.
const LOOKAHEAD: usize = 8;

/// Continuations tried per step.
const CONTINUATIONS: u64 = 12;

impl<'a> Survival<'a> {
    fn new(its: &'a Its) -> Self {
        Survival {
            its,
            at: HashMap::new(),
        }
    }

    /// A run of [`MAX_STEPS`] steps from `start`, or `None` when it ends before.
    fn run(&mut self, start: &[i128], seed: u64, deadline: Instant) -> Option<Run> {
        let mut run = Run {
            steps: 0,
            cost: 0,
            end: RunEnd::StepLimit,
            trace: Vec::new(),
            taken: Vec::new(),
            temps: Vec::new(),
        };
        let mut loc = self.its.start;
        let mut x = start.to_vec();
        while run.taken.len() < MAX_STEPS {
            if Instant::now() > deadline {
                return None;
            }
            let its = self.at.entry(loc).or_insert_with(|| {
                let mut copy = self.its.clone();
                copy.start = loc;
                copy
            });
            let mut interp = Interpreter::new(its);
            let mut best: Option<Run> = None;
            for k in 0..CONTINUATIONS {
                let cfg = RunConfig {
                    max_steps: LOOKAHEAD,
                    seed: seed * 1000 + run.taken.len() as u64 * CONTINUATIONS + k,
                    use_solver: false,
                    record: true,
                    ..RunConfig::default()
                };
                let r = interp.run(&x, &cfg);
                let done = r.end == RunEnd::StepLimit;
                if best.as_ref().is_none_or(|b| r.taken.len() > b.taken.len()) {
                    best = Some(r);
                }
                if done {
                    break;
                }
            }
            let best = best?;
            if best.taken.is_empty() {
                return None;
            }
            run.trace.push((loc, x.clone()));
            run.taken.push(best.taken[0]);
            run.temps.push(best.temps[0].clone());
            (loc, x) = best.trace[1].clone();
        }
        run.trace.push((loc, x));
        run.steps = run.taken.len();
        Some(run)
    }
}

/// One use of a transition in a run: the state before it and its temporaries.
type Use = (Vec<i128>, Vec<i128>);

/// The strategy and closed sets of the tail `h..` of `run`, as a witness.
fn closed_tail(
    its: &Its,
    solver: &mut dyn Solver,
    run: &Run,
    start: &[i128],
    h: usize,
    deadline: Instant,
) -> Option<Witness> {
    // The transitions of the tail in the order first taken, with their temporaries.
    let mut order: Vec<usize> = Vec::new();
    let mut seen: BTreeMap<usize, Vec<Use>> = BTreeMap::new();
    for k in h..run.taken.len() {
        let t = run.taken[k];
        if !seen.contains_key(&t) {
            order.push(t);
        }
        let entry = seen.entry(t).or_default();
        entry.push((run.trace[k].1.clone(), run.temps[k].clone()));
    }
    let strategy: Vec<(usize, Vec<Poly>)> = order
        .iter()
        .map(|&t| (t, skolem(its, &its.transitions[t], &seen[&t])))
        .collect();
    // The tail's states per location.
    let mut states: BTreeMap<usize, Vec<Vec<i128>>> = BTreeMap::new();
    for (l, x) in &run.trace[h..] {
        states.entry(*l).or_default().push(x.clone());
    }
    if order
        .iter()
        .any(|&t| !states.contains_key(&its.transitions[t].target()))
    {
        return None;
    }
    let paired = paired_variables(its, &order);
    let mut sets: BTreeMap<usize, Vec<Atom>> = states
        .iter()
        .map(|(&l, xs)| (l, candidates(its, l, xs, &paired)))
        .collect();
    let mut strategy = strategy;
    // A location whose set lets the strategy stop gets its other transitions into `L`
    // (enabled there): the tail may have seen only some cases of a switch (T2's `cover`).
    for _ in 0..EXTENSIONS {
        if !close(its, solver, &strategy, &mut sets, deadline)? {
            return None;
        }
        let Some((l, dead)) = dead_state(its, solver, &strategy, &sets)? else {
            let loc = run.trace[h].0;
            return Some(Witness {
                start: start.to_vec(),
                path: run.taken[..h].to_vec(),
                path_temps: run.temps[..h].to_vec(),
                lp: strategy[0].0,
                cycle: strategy.iter().map(|(t, _)| *t).collect(),
                cycle_temps: strategy.iter().map(|(_, p)| p.clone()).collect(),
                first_enabled: true,
                recurrent_set: describe(its, &sets, loc),
            });
        };
        let more: Vec<(usize, Vec<Poly>)> = (0..its.transitions.len())
            .filter(|i| !strategy.iter().any(|(t, _)| t == i))
            .map(|i| (i, &its.transitions[i]))
            .filter(|(_, t)| t.source == l && sets.contains_key(&t.target()))
            .map(|(i, t)| (i, skolem(its, t, &[])))
            .filter(|(i, temps)| {
                successor(&its.transitions[*i], temps, &dead).is_some() && {
                    let mut values = dead.clone();
                    values.extend(temps.iter().filter_map(|p| p.eval(&dead)));
                    its.transitions[*i]
                        .guard
                        .iter()
                        .all(|a| a.holds(&values) == Some(true))
                }
            })
            .collect();
        if more.is_empty() {
            return None;
        }
        strategy.extend(more);
    }
    None
}

/// Rounds of adding transitions where the strategy could stop.
const EXTENSIONS: usize = 4;

/// Shrinks `sets` until every transition of the strategy keeps them (Houdini style:
/// every round drops at least one atom); `Some(false)` when a violation drops none,
/// `None` past the deadline or on a solver failure.
fn close(
    its: &Its,
    solver: &mut dyn Solver,
    strategy: &[(usize, Vec<Poly>)],
    sets: &mut BTreeMap<usize, Vec<Atom>>,
    deadline: Instant,
) -> Option<bool> {
    let var = |v: usize| smt::int_var("c", v);
    let x: Vec<Term> = (0..its.arity()).map(var).collect();
    let total: usize = sets.values().map(Vec::len).sum();
    for _ in 0..=total {
        if Instant::now() > deadline {
            return None;
        }
        let mut dropped = false;
        for (t, temps) in strategy {
            let tr = &its.transitions[*t];
            let (pre, post) = step_terms(its, tr, temps, &x)?;
            let mut query: Vec<Term> = sets[&tr.source]
                .iter()
                .map(|a| smt::atom_term(a, &var))
                .collect();
            query.extend(pre);
            let target = &sets[&tr.target()];
            let at_post = |v: usize| post[v].clone();
            let kept: Vec<Term> = target.iter().map(|a| smt::atom_term(a, &at_post)).collect();
            query.push(Term::and_all(&kept).not());
            let model = match solver.model(&query) {
                Ok(None) => continue,
                Ok(Some(m)) => m,
                Err(_) => return None,
            };
            let before: Vec<i128> = x
                .iter()
                .map(|v| model.value_of(v).as_int())
                .collect::<Option<_>>()?;
            let Some(after) = successor(tr, temps, &before) else {
                return Some(false);
            };
            let set = sets.get_mut(&tr.target())?;
            let len = set.len();
            set.retain(|a| a.holds(&after) == Some(true));
            if set.len() == len {
                return Some(false);
            }
            dropped = true;
        }
        if !dropped {
            return Some(true);
        }
    }
    Some(false)
}

/// A location and a state of its set where no transition of the strategy is enabled
/// (`Some(None)`: there is none, the strategy never stops; `None`: the solver failed).
fn dead_state(
    its: &Its,
    solver: &mut dyn Solver,
    strategy: &[(usize, Vec<Poly>)],
    sets: &BTreeMap<usize, Vec<Atom>>,
) -> Option<Option<(usize, Vec<i128>)>> {
    let var = |v: usize| smt::int_var("c", v);
    let x: Vec<Term> = (0..its.arity()).map(var).collect();
    for (&l, set) in sets {
        let mut query: Vec<Term> = set.iter().map(|a| smt::atom_term(a, &var)).collect();
        for (t, temps) in strategy
            .iter()
            .filter(|(t, _)| its.transitions[*t].source == l)
        {
            let (pre, _) = step_terms(its, &its.transitions[*t], temps, &x)?;
            query.push(Term::and_all(&pre).not());
        }
        match solver.model(&query) {
            Ok(None) => {}
            Ok(Some(m)) => {
                let state: Vec<i128> = x
                    .iter()
                    .map(|v| m.value_of(v).as_int())
                    .collect::<Option<_>>()?;
                return Some(Some((l, state)));
            }
            Err(_) => return None,
        }
    }
    Some(None)
}

/// The guard of `t` and its update over the terms `x`, its temporaries replaced by
/// `temps` (polynomials over the program variables); `None` when `temps` does not have
/// one entry per temporary of `t`.
pub(crate) fn step_terms(
    its: &Its,
    t: &Transition,
    temps: &[Poly],
    x: &[Term],
) -> Option<(Vec<Term>, Vec<Term>)> {
    let n = its.arity();
    if temps.len() != t.temps.len() {
        return None;
    }
    let at_x = |v: usize| x[v].clone();
    let temp_terms: Vec<Term> = temps.iter().map(|p| smt::poly_term(p, &at_x)).collect();
    let var = |v: usize| {
        if v < n {
            x[v].clone()
        } else {
            temp_terms[v - n].clone()
        }
    };
    let guard = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
    let update = t.update().iter().map(|u| smt::poly_term(u, &var)).collect();
    Some((guard, update))
}

/// The state after `t` from `x` with the strategy's temporaries (`None` on overflow).
fn successor(t: &Transition, temps: &[Poly], x: &[i128]) -> Option<Vec<i128>> {
    let mut values = x.to_vec();
    for p in temps {
        values.push(p.eval(x)?);
    }
    t.update().iter().map(|u| u.eval(&values)).collect()
}

/// The temporaries of `t` as polynomials over the program variables, from the values
/// the tail used (`uses`: state and temporaries per use): pinned by the guard; else one
/// constant when every use had it; else an offset from a variable compared with it when
/// that offset was the same in every use; else the last value.
fn skolem(its: &Its, t: &Transition, uses: &[Use]) -> Vec<Poly> {
    let n = its.arity();
    (0..t.temps.len())
        .map(|q| {
            if let Some(p) = crate::recurrent::pinned(its, t, q) {
                return p;
            }
            let values: Vec<i128> = uses.iter().map(|(_, ts)| ts[q]).collect();
            let last = *values.last().unwrap_or(&0);
            if values.iter().all(|&v| v == last) {
                return Poly::constant(last);
            }
            let partners: BTreeSet<usize> = t
                .guard
                .iter()
                .filter(|a| a.poly.vars().contains(&(n + q)))
                .flat_map(|a| a.poly.vars())
                .filter(|&w| w < n)
                .collect();
            for w in partners {
                let offset = |(x, ts): &Use| ts[q].checked_sub(x[w]);
                let Some(first) = uses.first().and_then(offset) else {
                    continue;
                };
                if uses.iter().all(|u| offset(u) == Some(first)) {
                    return Poly::var(w).add(&Poly::constant(first));
                }
            }
            (0..n)
                .find_map(|w| line_through(uses, w, q))
                .unwrap_or_else(|| Poly::constant(last))
        })
        .collect()
}

/// `T_q = a·x_w + b` with integers `a ≠ 0`, `b` through every use, when the uses have
/// two distinct values of `x_w` (a coin that follows the state: `G = 2 − F` keeps T2's
/// `randomwalk` between 1 and 2).
fn line_through(uses: &[Use], w: usize, q: usize) -> Option<Poly> {
    let (x0, t0) = uses.first().map(|(x, ts)| (x[w], ts[q]))?;
    let (x1, t1) = uses
        .iter()
        .map(|(x, ts)| (x[w], ts[q]))
        .find(|&(x, _)| x != x0)?;
    let dt = t1.checked_sub(t0)?;
    let dx = x1.checked_sub(x0)?;
    if dt == 0 || dt % dx != 0 {
        return None;
    }
    let a = dt / dx;
    let b = t0.checked_sub(a.checked_mul(x0)?)?;
    let on_line = |x: i128, t: i128| a.checked_mul(x).and_then(|ax| ax.checked_add(b)) == Some(t);
    uses.iter()
        .all(|(x, ts)| on_line(x[w], ts[q]))
        .then(|| Poly::var(w).scale(a).add(&Poly::constant(b)))
}

/// The variables the octagon candidates pair: those the guards of `S` mention, then
/// those `S` changes (at most [`MAX_PAIRED`]).
fn paired_variables(its: &Its, s: &[usize]) -> Vec<usize> {
    let n = its.arity();
    let mut out: Vec<usize> = Vec::new();
    let mut add = |v: usize| {
        if v < n && !out.contains(&v) && out.len() < MAX_PAIRED {
            out.push(v);
        }
    };
    for &i in s {
        for a in &its.transitions[i].guard {
            a.poly.vars().into_iter().for_each(&mut add);
        }
    }
    for &i in s {
        for (v, u) in its.transitions[i].update().iter().enumerate() {
            if *u != Poly::var(v) {
                add(v);
            }
        }
    }
    out
}

/// The candidate atoms at `l`, all true at every state of `xs`.
fn candidates(its: &Its, l: usize, xs: &[Vec<i128>], paired: &[usize]) -> Vec<Atom> {
    let n = its.arity();
    let mut out: Vec<Atom> = Vec::new();
    let mut push = |a: Atom| {
        if out.len() < MAX_CANDIDATES && a.poly.as_constant().is_none() && !out.contains(&a) {
            out.push(a);
        }
    };
    // `lo ≤ p ≤ hi` over the tail's states.
    let range = |p: &Poly, push: &mut dyn FnMut(Atom)| {
        let values: Option<Vec<i128>> = xs.iter().map(|x| p.eval(x)).collect();
        let Some(values) = values else { return };
        let (Some(&lo), Some(&hi)) = (values.iter().min(), values.iter().max()) else {
            return;
        };
        push(Atom::ge0(p.sub(&Poly::constant(lo))));
        push(Atom::ge0(Poly::constant(hi).sub(p)));
    };
    for t in its.transitions.iter().filter(|t| t.source == l) {
        for a in &t.guard {
            if a.poly.vars().iter().any(|&v| v >= n) || a.rel == Rel::Ne {
                continue;
            }
            let sides = [a.poly.clone(), a.poly.scale(-1).sub(&Poly::constant(1))];
            let eq = [a.poly.clone(), a.poly.scale(-1)];
            for p in if a.rel == Rel::Eq { eq } else { sides } {
                if xs.iter().all(|x| p.eval(x).is_some_and(|v| v >= 0)) {
                    push(Atom::ge0(p));
                }
            }
        }
    }
    for v in 0..n {
        range(&Poly::var(v), &mut push);
    }
    for (i, &v) in paired.iter().enumerate() {
        for &w in &paired[i + 1..] {
            range(&Poly::var(v).sub(&Poly::var(w)), &mut push);
            range(&Poly::var(v).add(&Poly::var(w)), &mut push);
        }
    }
    out
}

/// The sets, readable (the one at `first`, the location the strategy starts at, first).
fn describe(its: &Its, sets: &BTreeMap<usize, Vec<Atom>>, first: usize) -> String {
    let name = |v: usize| its.vars[v].clone();
    let one = |l: usize, set: &[Atom]| {
        let atoms: Vec<String> = set
            .iter()
            .map(|a| format!("{} >= 0", a.poly.display(&name)))
            .collect();
        format!("at {}: {}", its.locations[l], atoms.join(" && "))
    };
    let mut parts = vec![one(first, &sets[&first])];
    parts.extend(
        sets.iter()
            .filter(|(&l, _)| l != first)
            .map(|(&l, s)| one(l, s)),
    );
    format!(
        "{} (each step: the first enabled transition of the cycle)",
        parts.join("; ")
    )
}
