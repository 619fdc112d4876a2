//! The ITS interpreter: the reference semantics the provers are tested against.
//!
//! A run starts at the start location with concrete values of the program variables and
//! repeatedly takes an enabled transition (chosen by a seeded random generator), choosing
//! its temporaries first by solving guard equalities, then at random near the current
//! values, and finally from a solver model (so that a transition the random choice misses
//! is still found). It ends when no transition is enabled, at a step limit, or when a
//! value leaves the `i128` range. The cost of a run is the sum of the costs of its steps.

use crate::its::{Its, Rel, Transition};
use crate::poly::Poly;
use crate::smt;
use std::time::Duration;
use symex_expr::Term;
use symex_solver::Solver;

/// A small seeded generator (SplitMix64): runs are reproducible from their seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `lo..=hi`.
    pub fn range(&mut self, lo: i128, hi: i128) -> i128 {
        let width = (hi - lo + 1) as u128;
        lo + (self.next_u64() as u128 % width) as i128
    }
}

/// How runs are made.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Steps after which a run is cut.
    pub max_steps: usize,
    /// Seed of the choices.
    pub seed: u64,
    /// Random temporaries are drawn within this distance of 0 or of a current value.
    pub temp_range: i128,
    /// Random attempts per transition before asking the solver.
    pub tries: usize,
    /// Whether to ask the solver when random choices find no enabled transition.
    pub use_solver: bool,
    /// Whether to record the visited states.
    pub record: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            max_steps: 10_000,
            seed: 1,
            temp_range: 8,
            tries: 40,
            use_solver: true,
            record: false,
        }
    }
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// No transition is enabled: the run terminated.
    Terminated,
    /// The step limit was reached.
    StepLimit,
    /// A value left the `i128` range.
    Overflow,
    /// The solver could not decide whether a transition is enabled.
    Unknown,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Run {
    /// Transitions taken.
    pub steps: usize,
    /// Total cost.
    pub cost: i128,
    /// Why it stopped.
    pub end: RunEnd,
    /// The visited (location, values) pairs, when recorded.
    pub trace: Vec<(usize, Vec<i128>)>,
    /// The transitions taken, when recorded.
    pub taken: Vec<usize>,
    /// The values of the temporaries of each transition taken, when recorded.
    pub temps: Vec<Vec<i128>>,
}

/// The interpreter of one ITS (keeps a solver for the temporaries).
pub struct Interpreter<'a> {
    its: &'a Its,
    solver: Option<Box<dyn Solver>>,
}

impl<'a> Interpreter<'a> {
    /// An interpreter of `its`.
    pub fn new(its: &'a Its) -> Interpreter<'a> {
        Interpreter { its, solver: None }
    }

    /// Runs from `start` (the program variables' values at the start location).
    pub fn run(&mut self, start: &[i128], cfg: &RunConfig) -> Run {
        let its = self.its;
        let mut rng = Rng::new(cfg.seed);
        let mut loc = its.start;
        let mut state = start.to_vec();
        let mut run = Run {
            steps: 0,
            cost: 0,
            end: RunEnd::Terminated,
            trace: Vec::new(),
            taken: Vec::new(),
            temps: Vec::new(),
        };
        let outgoing: Vec<Vec<usize>> = (0..its.locations.len())
            .map(|l| {
                (0..its.transitions.len())
                    .filter(|&i| its.transitions[i].source == l)
                    .collect()
            })
            .collect();
        loop {
            if cfg.record {
                run.trace.push((loc, state.clone()));
            }
            if run.steps >= cfg.max_steps {
                run.end = RunEnd::StepLimit;
                return run;
            }
            let mut candidates = outgoing[loc].clone();
            shuffle(&mut candidates, &mut rng);
            let mut chosen = None;
            let mut unknown = false;
            for &i in &candidates {
                match self.choose(&its.transitions[i], &state, cfg, &mut rng) {
                    Choice::Values(values) => {
                        chosen = Some((i, values));
                        break;
                    }
                    Choice::Unknown => unknown = true,
                    Choice::Disabled => {}
                }
            }
            let Some((i, values)) = chosen else {
                run.end = if unknown {
                    RunEnd::Unknown
                } else {
                    RunEnd::Terminated
                };
                return run;
            };
            let t = &its.transitions[i];
            let k = rng.range(0, t.targets.len() as i128 - 1) as usize;
            let (target, update) = &t.targets[k];
            let next: Option<Vec<i128>> = update.iter().map(|u| u.eval(&values)).collect();
            let cost = t.cost.eval(&values).and_then(|c| run.cost.checked_add(c));
            let (Some(next), Some(cost)) = (next, cost) else {
                run.end = RunEnd::Overflow;
                return run;
            };
            if cfg.record {
                run.taken.push(i);
                run.temps.push(values[state.len()..].to_vec());
            }
            run.cost = cost;
            run.steps += 1;
            loc = *target;
            state = next;
        }
    }

    /// Values of the program variables and temporaries that satisfy `t`'s guard.
    fn choose(&mut self, t: &Transition, state: &[i128], cfg: &RunConfig, rng: &mut Rng) -> Choice {
        let n = state.len();
        let mut values = state.to_vec();
        values.resize(n + t.temps.len(), 0);
        if t.temps.is_empty() {
            return match guard_holds(t, &values) {
                Some(true) => Choice::Values(values),
                _ => Choice::Disabled,
            };
        }
        for _ in 0..cfg.tries {
            for j in 0..t.temps.len() {
                if rng.range(0, 1) == 0 {
                    values[n + j] = rng.range(-cfg.temp_range, cfg.temp_range);
                } else {
                    let base = if n == 0 {
                        0
                    } else {
                        state[rng.range(0, n as i128 - 1) as usize]
                    };
                    values[n + j] = base.saturating_add(rng.range(-cfg.temp_range, cfg.temp_range));
                }
            }
            solve_equalities(t, &mut values, n);
            if guard_holds(t, &values) == Some(true) {
                return Choice::Values(values);
            }
        }
        if !cfg.use_solver {
            return Choice::Disabled;
        }
        self.solver_choice(t, state)
    }

    fn solver_choice(&mut self, t: &Transition, state: &[i128]) -> Choice {
        let n = state.len();
        let var = |v: usize| smt::int_var("v", v);
        let mut pc: Vec<Term> = t.guard.iter().map(|a| smt::atom_term(a, &var)).collect();
        for (v, x) in state.iter().enumerate() {
            pc.push(var(v).eq(&Term::int(*x)));
        }
        let solver = self
            .solver
            .get_or_insert_with(|| smt::solver(Duration::from_secs(5)));
        match solver.model(&pc) {
            Ok(Some(model)) => {
                let mut values = state.to_vec();
                for j in 0..t.temps.len() {
                    let x = model.value_of(&var(n + j)).as_int().unwrap_or(0);
                    values.push(x);
                }
                if guard_holds(t, &values) == Some(true) {
                    Choice::Values(values)
                } else {
                    Choice::Unknown
                }
            }
            Ok(None) => Choice::Disabled,
            Err(_) => Choice::Unknown,
        }
    }
}

enum Choice {
    Values(Vec<i128>),
    Disabled,
    Unknown,
}

fn guard_holds(t: &Transition, values: &[i128]) -> Option<bool> {
    for a in &t.guard {
        if !a.holds(values)? {
            return Some(false);
        }
    }
    Some(true)
}

/// Sets temporaries fixed by an equality `±T + rest = 0` whose rest is known, a few rounds.
fn solve_equalities(t: &Transition, values: &mut [i128], n: usize) {
    for _ in 0..3 {
        for a in t.guard.iter().filter(|a| a.rel == Rel::Eq) {
            for v in a.poly.vars().into_iter().filter(|v| *v >= n) {
                let c = a.poly.linear_coeff(v);
                if c.abs() != 1
                    || a.poly
                        .terms()
                        .any(|(m, _)| m.len() > 1 && m.iter().any(|(w, _)| *w == v))
                {
                    continue;
                }
                let rest = a.poly.sub(&Poly::var(v).scale(c));
                if let Some(r) = rest.eval(values) {
                    values[v] = -r * c;
                }
            }
        }
    }
}

fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.range(0, i as i128) as usize;
        items.swap(i, j);
    }
}
