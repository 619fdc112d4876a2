//! Linear lower bounds (`Omega(n^1)` in the competition's grammar): a family of runs in which one
//! start value chooses how many laps a cycle makes. When the start state `s(L)` gives the variable
//! `v` the value `scale·(L + shift)` and every other variable a constant, and Z3 proves for all
//! `L ≥ 1` that the path to the cycle can be taken and the cycle then runs `L` laps of cost at
//! least 1 each (the closed-form argument of [`crate::lower_bound`]'s families), the runtime from
//! start states of size `n` is at least about `n / |scale|`: `|s(L)|` grows linearly in `L`.
//!
//! Every family is replayed by plain evaluation before it is reported ([`replay`]).

use crate::graph;
use crate::its::Its;
use crate::lower_bound::{
    self, laps_possible_from_any_state, probe_values, proved_from, pull_back, relevant_vars,
    rotate_towards, sample_runs, simple_cycles, twice_possible, Param, Probed, MAX_PATHS,
    MAX_TRIES, QUERY_TIMEOUT, SHIFTS,
};
use crate::poly::Poly;
use crate::smt;
use std::time::Instant;
use symex_solver::Solver;

/// Runs whose length grows linearly with the start value of `var`: start at `start` with `var`
/// set to `scale·(L + shift)`, take `path`, then `cycle` `L` times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearFamily {
    /// Start values; the entry of `var` is replaced by the parameter's value.
    pub start: Vec<i128>,
    /// The variable whose start value chooses the number of laps.
    pub var: usize,
    pub scale: i128,
    pub shift: i128,
    /// The transitions from the start location to the cycle, with their temporaries.
    pub path: Vec<usize>,
    pub path_temps: Vec<Vec<i128>>,
    /// The cycle, with the temporaries of each transition (the same on every lap).
    pub cycle: Vec<usize>,
    pub cycle_temps: Vec<Vec<i128>>,
    /// The per-lap change of the variables the cycle's guard depends on (see
    /// [`crate::lower_bound::Family::steps`]).
    pub steps: Vec<(usize, Option<i128>)>,
}

impl LinearFamily {
    /// The start state of the run with `laps` laps.
    pub fn start_for(&self, laps: i128) -> Option<Vec<i128>> {
        let mut s = self.start.clone();
        *s.get_mut(self.var)? = laps.checked_add(self.shift)?.checked_mul(self.scale)?;
        Some(s)
    }
}

/// Looks for a [`LinearFamily`] within `deadline` (and a fixed number of tries); only one that
/// [`replay`] confirms is returned.
pub fn prove(its: &Its, deadline: Instant) -> Option<LinearFamily> {
    prove_where(its, deadline, &|_| true)
}

/// [`prove`], for the first family that `accept` takes.
pub fn prove_where(
    its: &Its,
    deadline: Instant,
    accept: &dyn Fn(&LinearFamily) -> bool,
) -> Option<LinearFamily> {
    if its.has_multi_targets() {
        return None;
    }
    let mut solver = smt::solver(QUERY_TIMEOUT);
    let solver = solver.as_mut();
    let runs = sample_runs(its);
    let mut possible = |c: &[usize]| laps_possible_from_any_state(its, solver, c, c.len() + 1);
    let cycles = simple_cycles(its, &mut possible);
    let mut tries = 0;
    for found in cycles {
        let cycle = rotate_towards(its, &found, its.start);
        let lc = its.transitions[cycle[0]].source;
        let counted = pull_back(its, &relevant_vars(its, &cycle), its.start, lc);
        if counted.is_empty() || !twice_possible(its, solver, &cycle) {
            continue;
        }
        for path in paths_to(its, lc, &runs) {
            for &var in &counted {
                tries += 1;
                if tries > MAX_TRIES || Instant::now() >= deadline || smt::out_of_time() {
                    return None;
                }
                for sign in [1, -1] {
                    let f = try_family(its, solver, &path, var, &cycle, sign);
                    if let Some(f) = f.filter(|f| accept(f) && replay(its, f)) {
                        return Some(f);
                    }
                }
            }
        }
    }
    None
}

/// Paths from the start location to `to`: the shortest, then the prefixes of sampled runs up to
/// their first arrival there.
pub(crate) fn paths_to(its: &Its, to: usize, runs: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = graph::shortest_path(its, its.start, to)
        .into_iter()
        .collect();
    for run in runs {
        let mut at = its.start;
        for (k, &i) in run.iter().enumerate() {
            if at == to {
                if !out.iter().any(|p| p[..] == run[..k]) && out.len() < MAX_PATHS {
                    out.push(run[..k].to_vec());
                }
                break;
            }
            at = its.transitions[i].target();
        }
    }
    out
}

/// A family through `path` and `cycle` whose start value of `var` has sign `sign`, proved by Z3
/// for every number of laps, or `None`.
fn try_family(
    its: &Its,
    solver: &mut dyn Solver,
    path: &[usize],
    var: usize,
    cycle: &[usize],
    sign: i128,
) -> Option<LinearFamily> {
    let Probed {
        start,
        path_temps,
        cycle_temps,
        lap,
        steps,
        scale,
    } = probe_values(its, solver, path, Param::Start(var), cycle, sign)?;
    let temp = |k: usize, j: usize| Poly::constant(path_temps[k][j]);
    for shift in SHIFTS {
        let mut x0: Vec<Poly> = start.iter().map(|&c| Poly::constant(c)).collect();
        x0[var] = Poly::var(0).add(&Poly::constant(shift)).scale(scale);
        if proved_from(its, solver, x0, path, &temp, &steps, &lap) {
            return Some(LinearFamily {
                start: start.clone(),
                var,
                scale,
                shift,
                path: path.to_vec(),
                path_temps: path_temps.clone(),
                cycle: cycle.to_vec(),
                cycle_temps: cycle_temps.clone(),
                steps,
            });
        }
    }
    None
}

/// Runs the family for `laps` laps by plain evaluation: whether every guard holds and the cost
/// reaches `laps` (`None` on overflow or a malformed family).
pub fn replay_laps(its: &Its, f: &LinearFamily, laps: i128) -> Option<bool> {
    let mut x = f.start_for(laps)?;
    let mut cost: i128 = 0;
    let lap = f.cycle.iter().zip(&f.cycle_temps);
    let steps = f
        .path
        .iter()
        .zip(&f.path_temps)
        .chain((0..laps).flat_map(|_| lap.clone()));
    for (&i, temps) in steps {
        let Some((next, c)) = lower_bound::step(&its.transitions[i], &x, temps) else {
            return Some(false);
        };
        x = next;
        cost = cost.checked_add(c)?;
    }
    Some(cost >= laps)
}

/// Whether the family reaches cost `L` in `L` laps for each `L` of
/// [`lower_bound::REPLAY_LENGTHS`].
pub fn replay(its: &Its, f: &LinearFamily) -> bool {
    lower_bound::REPLAY_LENGTHS
        .iter()
        .all(|&l| replay_laps(its, f, l) == Some(true))
}
